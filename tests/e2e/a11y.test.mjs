// axe-core on the lesson: both languages, light and dark; the whole page with the first code tab
// open, then just the panel of each other tab (scanning the rest again would find the same).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { useBrowser, openPage } from './harness.mjs';
import { openLesson, openMounted, loadPart, loadEveryPart } from './lesson-helpers.mjs';

const env = useBrowser();

for (const path of ['', 'en.html']) {
  for (const colorScheme of ['light', 'dark']) {
    test(`axe finds no violations: ${path || 'index.html'}, ${colorScheme}`, async () => {
      const page = await openLesson(env, path, { colorScheme });
      const found = [];
      for (const tab of ['algorithm', 'config', 'usage']) {
        await page.click(`#tab-${tab}`);
        if (tab === 'config') await page.waitForFunction(() => document.getElementById('policy-status').textContent !== '');
        const axe = new AxeBuilder({ page });
        if (tab !== 'algorithm') axe.include(`[data-tab=${tab}].tabpanel`);
        const { violations, passes } = await axe.analyze();
        assert.ok(passes.length > 10, 'axe ran its rules');
        found.push(...violations.map((v) => `${tab}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`));
      }
      assert.deepEqual(found, []);
      await page.context().close();
    });
  }
}

// More contrast asked for (prefers-contrast: more): axe's AAA contrast rule, 7:1 (4.5:1 for large
// text), finds nothing to fault, light and dark, both languages. One page a language, its scheme
// switched: every lazily loaded part in, the widget after a 429 (its orange status and
// countdown), the whole page with the first code tab open, then the other tabs' panels.
const ENHANCED = 'color-contrast-enhanced';

/** axe's enhanced contrast rule over `page` (or the part `include` selects): its violations and the nodes it checked. */
async function enhancedContrast(page, include) {
  const axe = new AxeBuilder({ page }).withRules([ENHANCED]);
  if (include) axe.include(include);
  const { violations, passes } = await axe.analyze();
  const nodes = (results) => results.filter((r) => r.id === ENHANCED).flatMap((r) => r.nodes);
  return { violations: nodes(violations), checked: [...nodes(passes), ...nodes(violations)] };
}

/** A violation as a line: where, its colours and ratio against what the rule asks. */
const contrastLine = (node) => {
  const { fgColor, bgColor, contrastRatio, expectedContrastRatio } = node.any[0]?.data ?? {};
  return `${node.target.join(' ')}: ${fgColor} on ${bgColor}, ${contrastRatio} (${expectedContrastRatio})`;
};

for (const path of ['', 'en.html']) {
  test(`more contrast: axe's ${ENHANCED} finds no violations, light and dark: ${path || 'index.html'}`, async () => {
    const page = await openLesson(env, path, { colorScheme: 'light', contrast: 'more' });
    assert.equal(await page.evaluate(() => matchMedia('(prefers-contrast: more)').matches), true);
    // B + 1 requests at one instant (lesson time stopped): the last one is denied, and its status
    // and countdown stay as they are while the page is scanned.
    await page.evaluate(() => window.bucketlab.diagram.pause());
    const capacity = await page.evaluate(() => window.bucketlab.diagram.capacity);
    for (let i = 0; i <= capacity; i++) await page.click('#bucket-widget .bl-send');
    await page.waitForSelector('#bucket-widget .bl-status[data-outcome="denied"]');
    await page.waitForSelector('#bucket-widget .bl-countdown:not(:empty)');
    await loadEveryPart(page);
    const parts = ['algorithm-lab', 'flood-lab', 'clients-lab', 'traffic-lab', 'recap-checks'];
    await page.waitForFunction((ids) => ids.every((id) => /-ready\b/.test(document.getElementById(id).className)), parts);
    const found = [];
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme, contrast: 'more' });
      for (const tab of ['algorithm', 'config', 'usage']) {
        await page.click(`#tab-${tab}`);
        // The policy's status, and its tiers' choice enabled (axe leaves a disabled one out).
        if (tab === 'config') await page.waitForFunction(() => document.getElementById('policy-status').textContent !== '' && !document.querySelector('[data-tab=config] .tier-choice').disabled);
        const { violations, checked } = await enhancedContrast(page, tab === 'algorithm' ? undefined : `[data-tab=${tab}].tabpanel`);
        assert.ok(checked.length > (tab === 'algorithm' ? 300 : 10), `${colorScheme} ${tab}: axe checked ${checked.length} nodes`);
        if (tab === 'algorithm') {
          // The 429's words were among them (the hero's countdown is empty: no text to check).
          assert.ok(checked.some((n) => /^<p class="bl-status"[^>]* data-outcome="denied"/.test(n.html)), `${colorScheme}: the denied status was checked`);
          assert.ok(checked.some((n) => n.html.includes('class="bl-countdown"')), `${colorScheme}: the countdown was checked`);
        }
        found.push(...violations.map((node) => `${colorScheme} ${tab}: ${contrastLine(node)}`));
      }
    }
    assert.deepEqual(found, []);
    await page.context().close();
  });
}

test(`more contrast: axe's ${ENHANCED} finds no violations in embed.html after a 429, light and dark`, async () => {
  // theme=auto: the element follows the system's scheme (embed.html is light otherwise).
  const page = await openPage(env.browser, { colorScheme: 'light', contrast: 'more' });
  await page.goto(`${env.server.url}embed.html?lang=en&theme=auto&capacity=1&paused`);
  await page.locator('bucket-lab .bl-widget[data-live]').waitFor();
  await page.click('bucket-lab .bl-send');
  await page.click('bucket-lab .bl-send');
  await page.locator('bucket-lab .bl-status[data-outcome="denied"]').waitFor();
  const found = [];
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme, contrast: 'more' });
    // The card is in the scheme asked for.
    const card = await page.evaluate(() => getComputedStyle(document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-frame')).backgroundColor);
    const sum = card.match(/\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b);
    assert.ok(colorScheme === 'light' ? sum > 600 : sum < 150, `${colorScheme}: the card is ${card}`);
    const { violations, checked } = await enhancedContrast(page);
    assert.ok(checked.some((n) => /^<p class="bl-status"[^>]* data-outcome="denied"/.test(n.html)), `${colorScheme}: the denied status was checked`);
    assert.ok(checked.length > 20, `${colorScheme}: axe checked ${checked.length} nodes`);
    found.push(...violations.map((node) => `${colorScheme}: ${contrastLine(node)}`));
  }
  assert.deepEqual(found, []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the first Tab at the top loads every part without a word from their live regions: a region is filled before it goes live', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 1280, height: 800 } });
  // What a screen reader would speak: a change inside a live region that was live when it changed.
  // The records of one task come together and in order, so a region made live after its text was
  // set (in the same task) is told apart from one filled while live.
  await page.evaluate(() => {
    window.spoken = [];
    const LIVE = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';
    new MutationObserver((records) => {
      const liveLater = new Map();
      records.forEach((r, i) => {
        if (r.type === 'attributes' && r.oldValue === null && r.target.matches(LIVE)) liveLater.set(r.target, i);
      });
      records.forEach((r, i) => {
        if (r.type === 'attributes') return;
        const target = r.target.nodeType === Node.ELEMENT_NODE ? r.target : r.target.parentElement;
        const region = target?.closest(LIVE);
        // A region inserted with its text is not read out; a change to one already there is.
        if (!region || region === target && r.addedNodes?.[0] === region) return;
        if (liveLater.has(region) && liveLater.get(region) > i) return;
        if (r.type === 'childList' && [...r.addedNodes].some((n) => n.nodeType === Node.ELEMENT_NODE && n.matches(LIVE))) return;
        if (region.textContent.trim()) window.spoken.push(`${region.className}: ${region.textContent.trim().slice(0, 60)}`);
      });
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['role', 'aria-live'], attributeOldValue: true });
  });
  const parts = ['algorithm-lab', 'flood-lab', 'clients-lab', 'traffic-lab', 'recap-checks'];
  await page.keyboard.press('Tab');
  await page.waitForFunction((ids) => ids.every((id) => /-ready\b/.test(document.getElementById(id).className)), parts);
  await page.waitForFunction(() => document.querySelector('#clients-lab .cl-takeaway')?.textContent && document.querySelector('#algorithm-lab .lab-score')?.textContent);
  assert.deepEqual(await page.evaluate(() => window.spoken), []);
  // Live all the same, for what the reader does there.
  assert.deepEqual(await page.evaluate(() => [document.querySelector('#algorithm-lab .lab-score').getAttribute('aria-live'), document.querySelector('#clients-lab .cl-takeaway').getAttribute('role')]), ['polite', 'status']);
  await page.context().close();
});

test('each quiz\'s "Check" is described by its own question, so a list of the page\'s buttons tells them apart', async () => {
  const page = await openLesson(env, 'en.html');
  await loadEveryPart(page);
  await page.waitForFunction(() => document.querySelectorAll('.quiz-check').length >= 15);
  const checks = await page.$$eval('.quiz-check', (buttons) => buttons.map((button) => {
    const described = document.getElementById(button.getAttribute('aria-describedby'));
    const legend = button.closest('.quiz-question').querySelector('legend');
    return { name: button.textContent, description: described?.textContent, same: described === legend };
  }));
  assert.ok(checks.length >= 15, `${checks.length} Check buttons`);
  assert.deepEqual(checks.filter((c) => !c.same || !c.description), [], 'each described by its own question');
  assert.equal(new Set(checks.map((c) => c.description)).size, checks.length, 'no two alike');
  await page.context().close();
});

test('keyboard only: Tab from the top reaches a control in every lazily loaded part, in page order; the headings skip no level', async () => {
  const page = await openLesson(env, '', { viewport: { width: 1280, height: 800 } });
  const parts = ['algorithm-lab', 'flood-lab', 'clients-lab', 'traffic-lab', 'recap-checks'];
  // The first Tab loads them all; wait for each to say it is ready, as a reader would not press
  // Tab a hundred times in the same millisecond.
  await page.keyboard.press('Tab');
  await page.waitForFunction((ids) => ids.every((id) => /-ready\b/.test(document.getElementById(id).className)), parts);
  const reached = [];
  for (let i = 0; i < 400 && reached.length < parts.length; i++) {
    await page.keyboard.press('Tab');
    const inside = await page.evaluate((ids) => ids.find((id) => document.getElementById(id).contains(document.activeElement)), parts);
    if (inside && !reached.includes(inside)) reached.push(inside);
  }
  assert.deepEqual(reached, parts);
  // With every part in, the headings go down one level at a time (h2 → h3, never h2 → h4).
  const skips = await page.$$eval('h1, h2, h3, h4, h5, h6', (headings) => {
    let previous = 0;
    return headings.filter((h) => h.getClientRects().length).flatMap((h) => {
      const level = Number(h.tagName[1]);
      const skip = level > previous + 1 ? [`h${previous} → h${level}: ${h.textContent.trim()}`] : [];
      previous = level;
      return skip;
    });
  });
  assert.deepEqual(skips, []);
  await page.context().close();
});

// The charts are SVG pictures that scale with the page; their text must still be readable on a
// phone. Every visible SVG text (the hero, the widget, its timeline, the lab's axis, the servers,
// the defense chart) is at least 10.5 px on screen.
for (const width of [375, 1280]) {
  test(`every chart's text is at least 10.5 px on screen at ${width} px`, async () => {
    const page = await openLesson(env, 'en.html', { viewport: { width, height: 800 } });
    const parts = ['algorithm-lab', 'flood-lab', 'clients-lab', 'traffic-lab', 'recap-checks'];
    await page.keyboard.press('Tab');
    await page.waitForFunction((ids) => ids.every((id) => /-ready\b/.test(document.getElementById(id).className)), parts);
    await page.waitForSelector('.lab-axis text');
    await page.waitForSelector('.df-tick');
    const small = await page.$$eval('svg text', (texts) => texts.flatMap((text) => {
      const box = text.getBoundingClientRect();
      if (!box.height || !text.textContent.trim() || getComputedStyle(text).display === 'none') return [];
      const svg = text.ownerSVGElement;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const px = parseFloat(getComputedStyle(text).fontSize) * scale;
      return px < 10.5 ? [`${text.getAttribute('class') ?? svg.getAttribute('class')} "${text.textContent}": ${px.toFixed(1)} px`] : [];
    }));
    assert.deepEqual([...new Set(small)], []);
    await page.context().close();
  });
}

// The clients' player: its time readout changes every frame while playing, so it is no live
// region (as the lab's); the scrubber says its value as a time out of the run's end.
for (const [path, time] of [['en.html', /^t = 0\.3 s of \d+(\.\d)? s$/], ['', /^t = 0,3 s de \d+(,\d)? s$/]]) {
  test(`clients (${path || 'index.html'}): the time readout is not announced, the scrubber's value is said as a time`, async () => {
    const page = await openMounted(env, path, '#clients-lab', 'cl-ready', { viewport: { width: 1280, height: 800 } });
    await page.evaluate(() => window.bucketlab.clients.pause());
    assert.equal(await page.getAttribute('#clients-lab output.cl-time', 'aria-live'), 'off');
    await page.focus('#clients-lab .cl-scrubber');
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => Math.abs(window.bucketlab.clients.time - 0.3) < 1e-9);
    const said = await page.getAttribute('#clients-lab .cl-scrubber', 'aria-valuetext');
    assert.match(said ?? '', time);
    assert.equal(said, await page.textContent('#clients-lab .cl-time'), 'the same words as the readout');
    await page.context().close();
  });
}

// Forced colours (Windows High Contrast): the charts keep their marks' colours, so each legend's
// swatches must too, or they all become the same system colour (or vanish into the background).
test('keyboard only: Tab through the contents on to the diagram far down leaves its control on the screen, once the sections passed have their real heights', async () => {
  // The sections passed grow as they come near, after the browser's scroll to the control: in
  // some runs that pushed it under the screen (1 in 3 here), so three runs.
  for (let run = 0; run < 3; run++) {
    const page = await openLesson(env, 'en.html', { viewport: { width: 1280, height: 800 } });
    for (let stop = 0; stop < 60; stop++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement.getAttribute('href') === '#faq')) break;
    }
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.classList.contains('bl-send')), true, 'the diagram\'s send button is next');
    await page.waitForFunction(() => {
      const box = document.activeElement.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= innerHeight && document.activeElement.closest('#bucket-widget');
    }, undefined, { timeout: 5000 });
    await page.context().close();
  }
});

test('keyboard only: Shift+Tab from the top reaches the last question and keeps it on the screen while the parts above it are built', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 1280, height: 800 } });
  await page.keyboard.press('Shift+Tab');
  // The first Tab loads every lazy part; as they are built above the focused question, the page
  // grows and the browser's scroll anchoring moves the scroll by another amount.
  await page.waitForFunction(() => ['#algorithm-lab', '#clients-lab', '#traffic-lab'].every((s) => document.querySelector(s)?.className.match(/-ready\b/)));
  await page.waitForFunction(() => {
    const box = document.activeElement.getBoundingClientRect();
    return document.activeElement.tagName === 'SUMMARY' && box.top >= 0 && box.bottom <= innerHeight;
  }, undefined, { timeout: 5000 });
  await page.context().close();
});

test('keyboard only: a page script that scrolls to a part and then focuses it (preventScroll) is left to land where it aims', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 1280, height: 800 } });
  // As the lab's "Try this" does: a smooth scroll to a heading's top, then the heading focused
  // without a scroll of its own, from a button pressed with the keyboard (the focus keeper once
  // pulled the heading to the screen's foot, cutting the script's scroll short).
  await page.evaluate(() => {
    const go = document.createElement('button');
    go.id = 'go-analogy';
    go.textContent = 'Go';
    document.querySelector('.hero').append(go);
    go.addEventListener('click', () => {
      const heading = document.querySelector('#analogia h2');
      heading.tabIndex = -1;
      heading.scrollIntoView({ behavior: 'smooth', block: 'start' });
      heading.focus({ preventScroll: true });
    });
  });
  await page.focus('#go-analogy');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement.closest('#analogia')
    && Math.abs(document.activeElement.getBoundingClientRect().top) < 80, undefined, { timeout: 10000 });
  await page.context().close();
});

test('forced colours: every legend entry keeps a visible swatch, distinct from the others in its legend and in its marks\' colour', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 1280, height: 800 } });
  await page.emulateMedia({ forcedColors: 'active' });
  for (const [mount, ready] of [['#algorithm-lab', 'lab-ready'], ['#flood-lab', 'df-ready'], ['#clients-lab', 'cl-ready'], ['#traffic-lab', 'tr-ready']]) {
    await loadPart(page, mount, ready);
  }
  await page.click('#servers-widget .sv-burst');
  await page.click('#traffic-lab .tr-sample');
  await page.waitForSelector('#traffic-lab .tr-legend');
  await page.waitForSelector('#clients-lab .cl-first');
  const { problems, legends } = await page.evaluate(() => {
    const canvas = getComputedStyle(document.body).backgroundColor;
    const problems = [];
    const legends = [...document.querySelectorAll('.lab-legend, .cl-legend, .sv-legend, .tr-legend')];
    for (const legend of legends) {
      const seen = new Map();
      for (const entry of legend.children) {
        const s = getComputedStyle(entry, '::before');
        const border = parseFloat(s.borderTopWidth) > 0 && s.borderTopStyle !== 'none' && s.borderTopColor !== canvas;
        const fill = !/^(transparent|rgba\(.*, 0\))$/.test(s.backgroundColor) && s.backgroundColor !== canvas;
        if (!border && !fill) problems.push(`${entry.className}: no visible swatch (background ${s.backgroundColor}, border ${s.borderTopStyle} ${s.borderTopColor})`);
        const look = [s.backgroundColor, s.borderTopStyle, s.borderTopColor, s.borderRadius, s.transform].join(' ');
        if (seen.has(look)) problems.push(`${entry.className} looks like ${seen.get(look)}: ${look}`);
        seen.set(look, entry.className);
      }
    }
    // The swatch is the colour of the marks it names.
    for (const [swatch, mark] of [['.lab-legend-ok', '.lab-comparison circle.lab-ok'], ['.lab-legend-deny', '.lab-comparison path.lab-deny'],
      ['.cl-legend-first', '.cl-first'], ['.cl-legend-retry', '.cl-retry'], ['.df-legend-served', '.df-served'], ['.df-legend-failed', '.df-failed'],
      ['.sv-key--ok', '.sv-admitted'], ['.sv-key--deny', '.sv-denied'], ['.tr-legend--median', '.tr-line--median'], ['.tr-legend--heaviest', '.tr-line--heaviest']]) {
      const s = getComputedStyle(document.querySelector(swatch), '::before');
      const colour = /^(transparent|rgba\(.*, 0\))$/.test(s.backgroundColor) ? s.borderTopColor : s.backgroundColor;
      const m = getComputedStyle(document.querySelector(mark));
      // A striped series (lab/dom.js `hatch`) is drawn in its pattern's stripes.
      const pattern = /^url\("?#([^")]+)"?\)$/.exec(m.fill);
      const drawn = pattern ? getComputedStyle(document.getElementById(pattern[1]).firstElementChild).fill : m.fill === 'none' ? m.stroke : m.fill;
      if (colour !== drawn) problems.push(`${swatch} is ${colour}, its marks ${mark} are ${drawn}`);
    }
    return { problems, legends: legends.length };
  });
  assert.ok(legends >= 5, `${legends} legends: the lab, the defense, the clients, the servers, the traffic`);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('forced colours: the chosen preset, code language and tab look unlike the others; a refused field and a click kept before the wasm are marked', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 1280, height: 800 } });
  await page.emulateMedia({ forcedColors: 'active' });
  for (const [mount, ready] of [['#algorithm-lab', 'lab-ready'], ['#flood-lab', 'df-ready'], ['#clients-lab', 'cl-ready']]) {
    await loadPart(page, mount, ready);
  }
  await page.click('#flood-lab [data-preset="flood"]');
  // Refused values, in the widget's cost field and the lab's limit.
  await page.fill('#bucket-widget .bl-cost', '99');
  await page.click('#bucket-widget .bl-send');
  await page.fill('#algorithm-lab .lab-field--limit input', '-3');
  await page.click('#algorithm-lab .lab-apply');
  await page.locator('#algorithm-lab .lab-field--limit input[aria-invalid="true"]').waitFor();
  // Away from every button, so no focus ring tells them apart.
  await page.evaluate(() => document.activeElement?.blur());
  const looks = await page.evaluate(() => {
    const look = (el) => { const s = getComputedStyle(el); return [s.backgroundColor, s.color, s.borderTopColor, s.borderTopStyle, s.borderTopWidth].join(' '); };
    const pair = (chosen, other) => [look(document.querySelector(chosen)), look(document.querySelector(other))];
    const field = (selector) => { const s = getComputedStyle(document.querySelector(selector)); return `${s.borderTopStyle} ${s.borderTopWidth}`; };
    return {
      pairs: {
        clients: pair('#clients-lab .cl-preset[aria-pressed="true"]', '#clients-lab .cl-preset[aria-pressed="false"]'),
        flood: pair('#flood-lab .df-preset[aria-pressed="true"]', '#flood-lab .df-preset[aria-pressed="false"]'),
        code: pair('.tech-option[aria-pressed="true"]', '.tech-option[aria-pressed="false"]'),
        tab: pair('[data-tabs] [role="tab"][aria-selected="true"]', '[data-tabs] [role="tab"][aria-selected="false"]'),
      },
      refused: [field('#bucket-widget .bl-cost[aria-invalid="true"]'), field('#algorithm-lab .lab-field--limit input')],
      accepted: field('#bucket-widget .bl-burst-size'),
    };
  });
  for (const [name, [chosen, other]] of Object.entries(looks.pairs)) assert.notEqual(chosen, other, `${name}: the chosen one looks like the rest`);
  assert.deepEqual(looks.refused, ['dashed 3px', 'dashed 3px']);
  assert.notEqual(looks.accepted, 'dashed 3px');
  // A click kept before the wasm arrived (the button's aria-busy): its stripes are dropped, a dashed border says so.
  const busy = await page.evaluate(() => {
    const send = document.querySelector('#hero-widget .bl-send');
    const before = getComputedStyle(send).borderTopStyle;
    send.setAttribute('aria-busy', 'true');
    const after = getComputedStyle(send).borderTopStyle;
    send.removeAttribute('aria-busy');
    return [before, after];
  });
  assert.deepEqual(busy, ['solid', 'dashed']);
  await page.context().close();
});

test('stacked bar charts tell their two series apart by more than colour (WCAG 1.4.1): the second is striped, in its colour, and so is its swatch', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 1280, height: 800 } });
  for (const [mount, ready] of [['#flood-lab', 'df-ready'], ['#clients-lab', 'cl-ready'], ['#traffic-lab', 'tr-ready']]) {
    await loadPart(page, mount, ready);
  }
  await page.click('#flood-lab [data-preset="flood"]');
  await page.click('#traffic-lab .tr-sample');
  await page.waitForSelector('#traffic-lab .tr-table');
  await page.click('#traffic-lab .tr-table tbody tr:nth-child(2) .tr-follow');
  await page.waitForSelector('#traffic-lab .tr-timeline-chart .tr-deny', { state: 'attached' });
  await page.waitForSelector('#clients-lab .cl-retry', { state: 'attached' });
  await page.waitForSelector('#flood-lab .df-failed', { state: 'attached' });
  const looks = await page.evaluate(() => [['.cl-first', '.cl-retry', '.cl-legend-retry'], ['.df-served', '.df-failed', '.df-legend-failed'], ['.tr-ok', '.tr-deny', null]].map(([solid, striped, swatch]) => {
    const fill = (selector) => getComputedStyle(document.querySelector(selector)).fill;
    const pattern = /^url\("?#([^")]+)"?\)$/.exec(fill(striped));
    const stripes = pattern && document.getElementById(pattern[1]);
    return {
      solid: /^rgb/.test(fill(solid)),
      striped: stripes?.tagName === 'pattern' && getComputedStyle(stripes.firstElementChild).fill !== fill(solid),
      swatch: swatch === null || /repeating-linear-gradient/.test(getComputedStyle(document.querySelector(swatch), '::before').backgroundImage),
    };
  }));
  assert.deepEqual(looks, Array(3).fill({ solid: true, striped: true, swatch: true }));
  // The replay's caption names the texture, not the colours alone.
  assert.match(await page.textContent('#traffic-lab .tr-timeline'), /Solid blue: admitted; striped orange: refused\./);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// The embedding demo (a course page with three <bucket-lab> and an iframe of embed.html) and
// embed.html alone: no violations, the frame's page included; its code samples, which scroll
// sideways, are reached with Tab and named.
test('axe finds no violations on the embedding demo (with its iframe) nor on embed.html alone; the demo\'s snippets are focusable and named', async () => {
  const page = await openPage(env.browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${env.server.url}demo/embed-demo.html`);
  await page.locator('.demo-frame').scrollIntoViewIfNeeded();
  const frame = await (await page.waitForSelector('.demo-frame')).contentFrame();
  await frame.waitForSelector('bucket-lab[data-ready], bucket-lab');
  await frame.waitForFunction(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-widget[data-live]'));
  await page.waitForFunction(() => [...document.querySelectorAll('bucket-lab')].every((b) => b.shadowRoot.querySelector('.bl-widget[data-live]')));
  const demo = await new AxeBuilder({ page }).analyze();
  assert.ok(demo.passes.length > 10, 'axe ran its rules');
  assert.deepEqual(demo.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`), []);
  // Each snippet is in the Tab order with a name that says which exercise's it is.
  const snippets = await page.$$eval('pre.snippet', (pres) => pres.map((pre) => [pre.tabIndex, pre.getAttribute('role'), pre.getAttribute('aria-label')]));
  assert.deepEqual(snippets, [1, 2, 3].map((n) => [0, 'region', `Code for exercise ${n}`]));
  for (let i = 0; i < 40 && !(await page.evaluate(() => document.activeElement.matches('pre.snippet'))); i++) await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'Code for exercise 1');
  await page.context().close();

  for (const [query, lang, title] of [['', 'pt-BR', 'Diagrama interativo do balde de tokens'], ['?lang=en', 'en', 'Interactive token-bucket diagram']]) {
    const alone = await openPage(env.browser);
    await alone.goto(`${env.server.url}embed.html${query}`);
    await alone.waitForFunction(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-widget[data-live]'));
    const { violations, passes } = await new AxeBuilder({ page: alone }).analyze();
    assert.ok(passes.length > 10, 'axe ran its rules');
    assert.deepEqual(violations.map((v) => `${lang}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`), []);
    assert.equal(await alone.textContent('h1'), title, `${lang}: the heading in the frame's language`);
    assert.equal(await alone.evaluate(() => document.getElementById(document.querySelector('main').getAttribute('aria-labelledby')).tagName), 'H1');
    await alone.context().close();
  }
});

/**
 * The colour on screen at each side of `selector`'s focus ring, in the middle of the ring's
 * stroke (from its computed outline width and offset), read from a screenshot: [r, g, b] for
 * left, right, top and bottom, and the accent it should be.
 */
async function ringSides(page, selector) {
  await page.evaluate(async (s) => {
    const el = document.querySelector(s);
    // Sections above get their real heights as they come near: scroll until it stays put.
    for (let last = NaN; ;) {
      el.scrollIntoView({ block: 'center', behavior: 'instant' });
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const top = el.getBoundingClientRect().top;
      if (top === last) break;
      last = top;
    }
    el.focus();
  }, selector);
  const box = await page.evaluate((s) => {
    const el = document.querySelector(s);
    const style = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    const out = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth) / 2;
    const probe = document.createElement('i');
    probe.style.setProperty('color', 'var(--accent)');
    document.body.append(probe);
    const accent = getComputedStyle(probe).color.match(/\d+/g).slice(0, 3).map(Number);
    probe.remove();
    return {
      visible: el.matches(':focus-visible'),
      accent,
      points: [
        [r.left - out, r.top + r.height / 2],
        [r.right + out, r.top + r.height / 2],
        [r.left + Math.min(r.width / 2, 40), r.top - out],
        [r.left + Math.min(r.width / 2, 40), r.bottom + out],
      ],
    };
  }, selector);
  const png = (await page.screenshot()).toString('base64');
  const colours = await page.evaluate(async ({ png, points }) => {
    const img = new Image();
    img.src = `data:image/png;base64,${png}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    return points.map(([x, y]) => (x < 0 || y < 0 || x >= img.width || y >= img.height
      ? null : [...ctx.getImageData(Math.floor(x), Math.floor(y), 1, 1).data.slice(0, 3)]));
  }, { png, points: box.points });
  return { ...box, colours };
}

test('focus rings are whole on all four sides: full-width controls in a section, a code listing, a table', async () => {
  for (const [width, colorScheme] of [[1280, 'light'], [375, 'dark']]) {
    const page = await openLesson(env, 'en.html', { viewport: { width, height: 800 }, colorScheme });
    // Every lazily loaded part in place first, so that nothing moves while the rings are read.
    await loadEveryPart(page);
    // The keyboard's modality: focus() then shows the ring as a Tab would.
    await page.keyboard.press('Tab');
    // The lesson's tables fit their boxes at any width (a phone stacks them), so none is a stop:
    // one made too wide for its box is, as a table is at a large text size.
    await page.locator('.table-wrap:has(#cap-exemplo)').scrollIntoViewIfNeeded();
    await page.$eval('.table-wrap:has(#cap-exemplo) > table', (table) => { table.style.minWidth = '150%'; });
    await page.waitForSelector('.table-wrap[tabindex="0"]:has(#cap-exemplo)');
    for (const selector of ['#faq summary', 'figure.code-block > pre[tabindex="0"]', '.table-wrap[tabindex="0"][role="region"]', '.tabpanel:not([hidden])']) {
      const { visible, accent, colours } = await ringSides(page, selector);
      assert.ok(visible, `${selector} shows its focus ring`);
      colours.forEach((colour, side) => {
        if (colour === null) return; // that side is off screen (an element taller than the screen)
        const near = colour.every((c, i) => Math.abs(c - accent[i]) <= 40);
        assert.ok(near, `${width} px, ${selector}, ${['left', 'right', 'top', 'bottom'][side]} side: ${colour} is not the ring's ${accent}`);
      });
    }
    await page.context().close();
  }
});

test('every focusable scroll area (a listing, a formula, a response head) is a region with a name, both languages', async () => {
  for (const path of ['', 'en.html']) {
    const page = await openLesson(env, path);
    const unnamed = await page.evaluate(() => [...document.querySelectorAll('pre[tabindex="0"]')].flatMap((pre) => {
      const name = pre.getAttribute('aria-label')
        ?? pre.getAttribute('aria-labelledby')?.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
      return pre.getAttribute('role') === 'region' && name?.trim() ? [] : [pre.outerHTML.slice(0, 80)];
    }));
    assert.deepEqual(unnamed, [], path);
    // …as the accessibility tree has it: a named region for each (the listings at least; a
    // formula that fits its box is no stop).
    assert.ok(await page.locator('pre[tabindex="0"]').count() >= 15);
    assert.equal(await page.getByRole('region', { name: 'bucket.rs (Rust)' }).count(), 1);
    await page.context().close();
  }
});

/** The page's eight boxes that scroll only on a narrow screen: the state, the formulas, the console, the tables. */
const SCROLL_BOXES = ['pre.state', 'pre.formula', 'pre.console', ...['cap-exemplo', 'cap-comparacao', 'cap-planos'].map((id) => `.table-wrap:has(#${id})`)].join(', ');

/**
 * For each of those boxes: whether it overflows (measured here), and whether it is a Tab stop and a
 * named region (its tabIndex, role and name), as `name: overflows/tab/role`.
 */
function scrollBoxes(page) {
  return page.$$eval(SCROLL_BOXES, (boxes) => boxes.map((box, i) => {
    const overflows = box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight;
    const named = box.hasAttribute('aria-label') || box.hasAttribute('aria-labelledby');
    return `${i} ${box.className}: ${overflows ? 'overflows' : 'fits'}/${box.tabIndex >= 0 ? 'tab' : 'no tab'}/${box.getAttribute('role') ?? 'no role'}${named ? ', named' : ''}`;
  }));
}

/** What each box should be: a named region and a Tab stop while it overflows, neither while it fits. */
const expected = (states) => states.map((s) => s.replace(/: (overflows|fits)\/.*/, (_, fit) => `: ${fit}/${fit === 'overflows' ? 'tab/region, named' : 'no tab/no role'}`));

test('a formula, the state, the console and the tables take a Tab stop only while they have something to scroll, and keep it without JavaScript', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 1280, height: 800 } });
  // At 1280 px all eight fit: none is a stop (the page decides once it is idle: waited for).
  await page.waitForFunction((s) => [...document.querySelectorAll(s)].every((box) => box.tabIndex < 0), SCROLL_BOXES);
  let states = await scrollBoxes(page);
  assert.equal(states.length, 8);
  assert.deepEqual(states, states.map((s) => s.replace(/: .*/, ': fits/no tab/no role')));
  // A listing that does overflow keeps its stop.
  assert.equal(await page.$eval('figure.code-block > pre:not([hidden] *)', (pre) => pre.tabIndex), 0);

  // At 375 px the state and the formulas overflow: stops again, named regions; the rest as they measure.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.waitForFunction((s) => document.querySelector(s).tabIndex === 0, 'pre.formula');
  await page.waitForFunction(() => document.querySelectorAll('pre.formula[tabindex="0"], pre.state[tabindex="0"]').length === 4);
  states = await scrollBoxes(page);
  assert.deepEqual(states, expected(states));
  assert.ok(states.filter((s) => s.includes('overflows')).length >= 4, states.join('\n'));

  // Focused while the screen widens, a formula keeps its stop (the focus stays) until the focus leaves it.
  await page.focus('pre.formula');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForFunction(() => document.querySelector('pre.formula').scrollWidth <= document.querySelector('pre.formula').clientWidth);
  await page.waitForFunction((s) => [...document.querySelectorAll(s)].filter((box) => box.tabIndex >= 0).length === 1, SCROLL_BOXES);
  assert.equal(await page.evaluate(() => document.activeElement.matches('pre.formula')), true);
  await page.keyboard.press('Tab');
  await page.waitForFunction((s) => [...document.querySelectorAll(s)].every((box) => box.tabIndex < 0), SCROLL_BOXES);
  states = await scrollBoxes(page);
  assert.deepEqual(states, expected(states));
  assert.deepEqual(page.problems, []);
  await page.context().close();

  // Without JavaScript nothing measures them: every one stays a stop, so none is out of reach.
  const still = await openPage(env.browser, { javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
  await still.goto(new URL('en.html', env.server.url).href);
  const plain = await scrollBoxes(still);
  assert.equal(plain.length, 8);
  assert.deepEqual(plain.filter((state) => !state.endsWith('/tab/region, named')), []);
  await still.context().close();
});

test('forced colours: the widget\'s SVG takes the system\'s colours, in embed.html fixed to light under a dark high-contrast theme too', async () => {
  const page = await openPage(env.browser);
  await page.emulateMedia({ forcedColors: 'active', colorScheme: 'dark' });
  await page.goto(`${env.server.url}embed.html?lang=en`);
  await page.locator('bucket-lab .bl-widget[data-live]').waitFor();
  const look = await page.evaluate(() => {
    const root = document.querySelector('bucket-lab').shadowRoot;
    const paint = (selector, property) => getComputedStyle(root.querySelector(selector))[property];
    return {
      text: getComputedStyle(root.querySelector('.bl-widget')).color,
      bucket: paint('.bl-bucket', 'stroke'),
      label: paint('.bl-label', 'fill'),
      counter: paint('.bl-counter', 'fill'),
      halo: paint('.bl-counter', 'stroke'),
      water: paint('.bl-fill', 'fill'),
      tick: paint('.bl-tl-start', 'fill'),
      canvas: getComputedStyle(root.querySelector('.bl-frame')).backgroundColor,
    };
  });
  // CanvasText on Canvas: the system's own pair (white on black under a dark theme).
  assert.notEqual(look.text, look.canvas);
  for (const key of ['bucket', 'label', 'counter', 'tick']) assert.equal(look[key], look.text, `${key}: ${JSON.stringify(look)}`);
  assert.equal(look.halo, look.canvas);
  // The water is an area of its own colour: a full bucket does not look empty.
  assert.notEqual(look.water, look.canvas, 'the water is not drawn in the canvas colour');
  assert.notEqual(look.water, look.text, 'the surface line and the counter stay apart from the water');
  await page.context().close();
});

test('at 375 px a table cell is named by its text alone: the label its column header gives it on screen is not said twice', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 375, height: 812 } });
  const cell = page.locator('.compare-table tbody td').nth(1);
  assert.equal(await cell.getAttribute('data-label'), 'Traits');
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('.compare-table tbody td:nth-child(2)'), '::before').display), 'block', 'the label shows');
  assert.equal(await cell.ariaSnapshot(), '- cell "Average held to r; decision in O(1) time"');
  await page.context().close();
});

test('without JavaScript the Configuration and Usage tabs do not describe the controls only JavaScript brings', async () => {
  const intros = (page) => page.$$eval('#codigo-configuracao > p:first-of-type, #codigo-uso > p:first-of-type', (ps) => ps.map((p) => p.innerText.trim()));
  const still = await openPage(env.browser, { javaScriptEnabled: false });
  await still.goto(new URL('en.html', env.server.url).href);
  const [config, usage] = await intros(still);
  assert.equal(config, 'A YAML policy with one bucket per route tier.');
  assert.match(usage, /when it runs dry\.$/);
  await still.context().close();
  const live = await openLesson(env, 'en.html');
  await live.click('#tab-config');
  const [withJs] = await intros(live);
  assert.match(withJs, /choose another tier to apply it to the diagram/);
  await live.context().close();
});
