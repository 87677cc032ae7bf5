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
  const tick = svg.querySelector('.bl-tl-tick');
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
