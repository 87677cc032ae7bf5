// Layout details a reader sees as defects when they slip: legends in a row, copy buttons inside
// their captions, the comparison table's widths, the Configuration tab's tier names. Each was
// found on screenshots and is measured here on the laid-out page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './harness.mjs';
import { loadPart, openLesson } from './lesson-helpers.mjs';

const env = useBrowser();

test('a chart legend laid out in a row keeps its items on one line (the servers\' and the lab\'s)', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 1280, height: 800 } });
  await loadPart(page, '#algorithm-lab', 'lab-ready');
  for (const legend of ['.sv-legend', '.lab-legend']) {
    await page.locator(legend).first().scrollIntoViewIfNeeded();
    await page.locator(`${legend} li`).first().waitFor();
    // Each item either sits level with the one before it or starts a row of its own below it
    // (a page-wide `li + li` margin once pushed every later item ~6 px down its row).
    const boxes = await page.$eval(legend, (ul) => [...ul.children].map((li) => li.getBoundingClientRect()).map((r) => ({ top: r.top, height: r.height })));
    assert.ok(boxes.length >= 2, legend);
    const steps = boxes.slice(1).map((b, i) => b.top - boxes[i].top);
    assert.ok(steps.some((d) => d === 0), `${legend}: no two items share a row`);
    assert.deepEqual(steps.filter((d, i) => d !== 0 && d < boxes[i].height), [], `${legend}: items at ${boxes.map((b) => b.top).join(', ')} px`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const width of [1280, 375]) {
  test(`every code block's copy button sits inside its caption (${width} px)`, async () => {
    const page = await openLesson(env, 'en.html', { viewport: { width, height: 800 } });
    const spills = await page.$$eval('figure.code-block', (figures) => figures.flatMap((figure) => {
      const button = figure.querySelector('button.copy');
      const caption = figure.querySelector('figcaption');
      if (!button || !caption || button.closest('[hidden]')) return [];
      const b = button.getBoundingClientRect();
      const c = caption.getBoundingClientRect();
      return b.top >= c.top && b.bottom <= c.bottom ? [] : [`${caption.textContent.trim()}: ${b.top}–${b.bottom} in ${c.top}–${c.bottom}`];
    }));
    assert.deepEqual(spills, []);
    await page.context().close();
  });
}

for (const path of ['', 'en.html']) test(`the comparison table gives its formulas room at 1280 px without scrolling sideways (${path || 'index.html'})`, async () => {
  const page = await openLesson(env, path, { viewport: { width: 1280, height: 800 } });
  const wrap = page.locator('.table-wrap:has(#cap-comparacao)');
  await wrap.scrollIntoViewIfNeeded();
  const sizes = await wrap.evaluate((el) => ({
    overflow: el.scrollWidth - el.clientWidth,
    traits: Math.min(...[...el.querySelectorAll('td.cell-wide')].map((td) => td.getBoundingClientRect().width)),
  }));
  assert.equal(sizes.overflow, 0);
  assert.ok(sizes.traits >= 200, `the traits column is ${sizes.traits} px wide (163 px when it broke GCRA's formula over four lines)`);
  await page.context().close();
});

for (const path of ['', 'en.html']) {
  test(`Configuration tab at 375 px (${path || 'index.html'}): each tier's name stays on one line, its radio in the lesson's colour`, async () => {
    const page = await openLesson(env, path, { viewport: { width: 375, height: 812 } });
    await page.click('[role=tab][data-tab=config]');
    await page.locator('.tier-choice code').first().waitFor();
    const tiers = await page.$$eval('.tier-choice', (sets) => sets.flatMap((set) => [...set.querySelectorAll('code')].map((code) => ({
      name: code.textContent, lines: new Set([...code.getClientRects()].map((r) => Math.round(r.top))).size,
    }))));
    assert.ok(tiers.length >= 2);
    assert.deepEqual(tiers.filter((t) => t.lines !== 1), []);
    const accent = await page.$eval('.tier-choice input', (input) => getComputedStyle(input).accentColor);
    assert.notEqual(accent, 'auto');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

/** The timeline's tick labels' size on screen, in px: their font size scaled as the SVG is. */
const tickPixels = (root) => {
  const svg = root.querySelector('.bl-timeline');
  const tick = svg.querySelector('.bl-tl-start');
  return parseFloat(getComputedStyle(tick).fontSize) * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
};

test('the timeline\'s labels stay readable (≥ 11 px) in a 300 px column and in a 320 px iframe', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${env.server.url}demo/embed-demo.html`);
  await page.$eval('bucket-lab', (el) => { el.style.width = '300px'; el.setAttribute('controls', 'send time'); });
  await page.waitForFunction(() => document.querySelector('bucket-lab').shadowRoot?.querySelector('.bl-widget[data-live]'));
  const column = await page.$eval('bucket-lab', (el, f) => new Function(`return (${f})`)()(el.shadowRoot), tickPixels.toString());
  assert.ok(column >= 11, `ticks ${column.toFixed(1)} px in a 300 px column`);
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(`${env.server.url}embed.html?lang=en`);
  await page.waitForFunction(() => document.querySelector('bucket-lab')?.shadowRoot?.querySelector('.bl-widget[data-live]'));
  const narrow = await page.$eval('bucket-lab', (el, f) => new Function(`return (${f})`)()(el.shadowRoot), tickPixels.toString());
  assert.ok(narrow >= 11, `ticks ${narrow.toFixed(1)} px in a 320 px iframe`);
  await page.close();
});

test('a focused slider\'s ring stays clear of its value (1280 and 375 px)', async () => {
  for (const width of [1280, 375]) {
    const page = await openLesson(env, 'en.html', { viewport: { width, height: 800 } });
    await page.focus('#bucket-widget .bl-rate');
    await page.keyboard.press('ArrowRight');
    const gap = await page.$eval('#bucket-widget .bl-rate', (range) => {
      const style = getComputedStyle(range);
      const ring = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
      const out = range.parentElement.querySelector('.bl-out');
      return out.getBoundingClientRect().left - (range.getBoundingClientRect().right + ring);
    });
    assert.ok(gap >= 0, `${width} px: the ring overlaps the value by ${-gap} px`);
    await page.context().close();
  }
});

test('a huge B and r read on one line beside their sliders (375 px)', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 375, height: 800 } });
  await page.evaluate(() => { window.bucketlab.diagram.pause(); window.bucketlab.diagram.configure(1e308, 1e308); });
  const outs = await page.$$eval('#bucket-widget .bl-out', (outs) => outs.map((out) => {
    const field = out.parentElement.getBoundingClientRect();
    const box = out.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(out);
    return { text: out.textContent, lines: range.getClientRects().length, inside: box.right <= field.right + 0.5 };
  }));
  assert.deepEqual(outs, [{ text: '1e+308', lines: 1, inside: true }, { text: '1e+308', lines: 1, inside: true }]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('on a phone the language buttons keep some air above the title (375 px)', async () => {
  const page = await openLesson(env, 'index.html', { viewport: { width: 375, height: 812 } });
  const gap = await page.evaluate(() => document.querySelector('h1').getBoundingClientRect().top - document.querySelector('.lang-switch').getBoundingClientRect().bottom);
  assert.ok(gap >= 12, `${gap} px between the language buttons and the title`);
  await page.context().close();
});

test('a card list with an odd count ends on a full-width card, not one beside a gap (1280 px)', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 1280, height: 800 } });
  const lists = await page.$$eval('dl.params', (lists) => lists.map((dl) => {
    const cards = [...dl.children];
    const last = cards.at(-1).getBoundingClientRect();
    return { count: cards.length, full: Math.abs(last.width - dl.getBoundingClientRect().width) < 1 };
  }));
  assert.ok(lists.some((l) => l.count % 2 === 1), 'the page has an odd card list (the defense layers)');
  assert.deepEqual(lists.filter((l) => (l.count % 2 === 1) !== l.full), []);
  await page.context().close();
});

// The lab's quick check, the clients' questions and the recap's checks share one look
// (www/lesson/quiz.css); a rule added for one of them alone (the lab's buttons, the clients'
// radios) once made them drift apart. Each quiz's card, prompt, choice, radio, Check button and
// both verdicts are compared as laid out, in both colour schemes and at both widths.
for (const [width, colorScheme] of [[1280, 'light'], [375, 'dark']]) {
  test(`the three quizzes look alike: cards, choices, radios, Check and verdicts (${width} px, ${colorScheme})`, async () => {
    const page = await openLesson(env, 'en.html', { viewport: { width, height: 800 }, colorScheme, reducedMotion: 'reduce' });
    const looks = {};
    for (const [name, mount, ready] of [['lab', '#algorithm-lab', 'lab-ready'], ['clients', '#clients-lab', 'cl-ready'], ['recap', '#recap-checks', 'df-ready']]) {
      await loadPart(page, mount, ready);
      looks[name] = await page.$eval(mount, (root) => {
        const pick = (element, names) => {
          const style = getComputedStyle(element);
          return Object.fromEntries(names.map((n) => [n, style.getPropertyValue(n)]));
        };
        const box = ['padding-top', 'padding-right', 'padding-bottom', 'padding-left', 'border-top-width', 'border-top-style', 'border-top-color', 'outline-style', 'outline-color', 'border-top-left-radius', 'background-color'];
        const text = ['font-size', 'font-weight', 'line-height', 'color'];
        const questions = [...root.querySelectorAll('.quiz .quiz-question')];
        const [question] = questions;
        const look = {
          quiz: pick(question.closest('.quiz'), ['row-gap']),
          card: pick(question, [...box, 'row-gap']),
          prompt: pick(question.querySelector('legend'), text),
          option: pick(question.querySelector('.quiz-option'), ['display', 'column-gap', 'align-items', 'min-height']),
          radio: pick(question.querySelector('.quiz-option input[type=radio]'), ['width', 'height', 'margin-top', 'accent-color']),
          label: pick(question.querySelector('.quiz-option label'), text),
          check: pick(question.querySelector('.quiz-check'), [...box, ...text, 'min-height', 'margin-top', 'justify-self']),
          // Gaps between the rows: prompt → first choice, choice → choice, last choice → Check.
          gaps: (() => {
            const options = question.querySelectorAll('.quiz-option');
            const rows = [question.querySelector('legend'), options[0], options[1], options[options.length - 1], question.querySelector('.quiz-check')];
            const boxes = rows.map((e) => e.getBoundingClientRect());
            return [[0, 1], [1, 2], [3, 4]].map(([a, b]) => Math.round(boxes[b].top - boxes[a].bottom));
          })(),
        };
        // Graded as a reader does it (click a choice, then Check), until a right and a wrong
        // verdict are on screen; the lab grades a question once, the others let it be checked again.
        for (const q of questions) {
          for (const input of q.querySelectorAll('input[type=radio]')) {
            const check = q.querySelector('.quiz-check');
            if (look.right && look.wrong) break;
            if (check.disabled) break;
            input.click();
            check.click();
            const verdict = q.querySelector('.quiz-verdict');
            const key = { true: 'right', false: 'wrong' }[verdict.dataset.correct];
            if (key && !look[key]) {
              look[key] = { ...pick(verdict, [...box, 'border-left-width', 'border-left-color', ...text]), focused: document.activeElement === verdict, live: verdict.getAttribute('aria-live') };
              break;
            }
          }
        }
        return look;
      });
    }
    const { lab, clients, recap } = looks;
    assert.ok(lab.right && lab.wrong && clients.right && clients.wrong && recap.right && recap.wrong, 'each quiz showed a right and a wrong verdict');
    for (const part of Object.keys(lab)) {
      assert.deepEqual(clients[part], lab[part], `the clients' ${part} looks like the lab's`);
      assert.deepEqual(recap[part], lab[part], `the recap's ${part} looks like the lab's`);
    }
    // In the lesson's colours: the radio and Check in its accent, the verdicts on its ok/deny tints.
    assert.equal(lab.radio['accent-color'], lab.check['background-color']);
    assert.equal(lab.right.focused, true, 'the verdict takes the focus');
    assert.equal(lab.right.live, null, 'and is not a live region');
    assert.notEqual(lab.right['border-left-color'], lab.wrong['border-left-color']);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

/** The timeline's burst markers and labels in `root`, in screen px: how far the markers reach past
 * the chart's right edge, and the gap from the lower (denied) row down to the labels. */
const burstRoom = (root) => {
  const svg = root.querySelector('.bl-timeline').getBoundingClientRect();
  const ok = root.querySelector('.bl-tl-admitted').getBoundingClientRect();
  const denied = root.querySelector('.bl-tl-denied').getBoundingClientRect();
  const label = Math.min(...[...root.querySelectorAll('.bl-tl-start, .bl-tl-end')].map((t) => t.getBoundingClientRect().top));
  return { past: Math.max(ok.right, denied.right) - svg.right, gap: label - denied.bottom, rows: denied.top - ok.bottom };
};

test('a burst sent now shows whole on the timeline, its two rows apart and clear of the labels', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 1280, height: 800 } });
  await page.evaluate(() => { const d = window.bucketlab.diagram; d.pause(); for (let i = 0; i < 7; i++) d.send(1); });
  const wide = await page.$eval('#bucket-widget', (el, f) => new Function(`return (${f})`)()(el), burstRoom.toString());
  await page.context().close();
  const narrowPage = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await narrowPage.goto(`${env.server.url}demo/embed-demo.html`);
  await narrowPage.$eval('bucket-lab', (el) => { el.style.width = '300px'; });
  await narrowPage.waitForFunction(() => document.querySelector('bucket-lab').diagram);
  await narrowPage.evaluate(() => { const d = document.querySelector('bucket-lab').diagram; d.pause(); for (let i = 0; i < 7; i++) d.send(1); });
  const narrow = await narrowPage.$eval('bucket-lab', (el, f) => new Function(`return (${f})`)()(el.shadowRoot), burstRoom.toString());
  await narrowPage.close();
  for (const [where, room] of [['1280 px', wide], ['a 300 px column', narrow]]) {
    assert.ok(room.past <= 0, `${where}: the markers reach ${room.past} px past the chart's edge`);
    assert.ok(room.rows >= 0, `${where}: the rows overlap by ${-room.rows} px`);
    assert.ok(room.gap >= 0, `${where}: the labels overlap the denied row by ${-room.gap} px`);
  }
});

for (const path of ['', 'en.html']) test(`at 375 px a preset whose label wraps keeps air between its lines and at its edges (${path || 'index.html'})`, async () => {
  const page = await openLesson(env, path, { viewport: { width: 375, height: 812 } });
  await page.waitForFunction(() => typeof window.bucketlab?.loadDefense === 'function' && typeof window.bucketlab?.loadClients === 'function');
  await page.evaluate(() => Promise.all([window.bucketlab.loadDefense(), window.bucketlab.loadClients()]));
  await page.locator('.df-preset').first().waitFor();
  await page.locator('.cl-preset').first().waitFor();
  const wrapped = await page.$$eval('.df-preset, .cl-preset', (buttons) => buttons.flatMap((button) => {
    const range = document.createRange();
    range.selectNodeContents(button);
    const tops = [...new Set([...range.getClientRects()].map((r) => Math.round(r.top)))].sort((a, b) => a - b);
    if (tops.length < 2) return [];
    const size = parseFloat(getComputedStyle(button).fontSize);
    const box = button.getBoundingClientRect();
    const text = range.getBoundingClientRect();
    return [{ label: button.textContent, spacing: (tops[1] - tops[0]) / size, above: text.top - box.top, below: box.bottom - text.bottom }];
  }));
  assert.ok(wrapped.length >= (path ? 2 : 4), `the retry lab's presets wrap (and the pt-BR flood lab's): ${wrapped.length}`);
  assert.deepEqual(wrapped.filter((b) => b.spacing < 1.3 || b.above < 8 || b.below < 8), []);
  await page.context().close();
});

for (const path of ['', 'en.html']) test(`at 1280 px the language switch keeps air under it, over the hero's card (${path || 'index.html'})`, async () => {
  const page = await openLesson(env, path, { viewport: { width: 1280, height: 800 } });
  const gap = await page.evaluate(() => document.querySelector('.hero').getBoundingClientRect().top - document.querySelector('.lang-switch').getBoundingClientRect().bottom);
  assert.ok(gap >= 12, `${gap} px between the switch and the hero (4 px when they nearly touched)`);
  await page.context().close();
});
