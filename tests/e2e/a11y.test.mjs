// axe-core on the lesson: both languages, light and dark; the whole page with the first code tab
// open, then just the panel of each other tab (scanning the rest again would find the same).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { useBrowser } from './harness.mjs';
import { openLesson, openMounted } from './lesson-helpers.mjs';

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
