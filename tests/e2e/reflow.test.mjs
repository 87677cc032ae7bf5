// The widget on phones and at 200 % text: Tab goes through it in the order it is seen (WCAG 2.4.3),
// in one column (375 px) and in two (1280 px), on the lesson page (section 5) and in embed.html's
// <bucket-lab>; and at 200 % text its group titles (legends) wrap inside their border, and its
// titles (the hero's, section 5's) break between words only. Lesson time stands still (the widget's pause), so the
// 429 that shows the response head is the sixth press however slowly the presses come.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser } from './harness.mjs';

const env = useBrowser();
const CASES = [['en.html', '#bucket-widget'], ['index.html', '#bucket-widget'], ['embed.html?lang=en', 'bucket-lab']];
/** The widget's focus stops, in the order it is seen in one column and in two: the send row, the
 * response (its head scrolls, so it takes focus), the timeline, then the other controls. */
const STOPS = ['bl-send', 'bl-cost', 'bl-burst-size', 'bl-burst', 'bl-head', 'bl-scrub', 'bl-capacity', 'bl-rate',
  'bl-traffic', 'bl-traffic-rate', 'bl-seed', 'bl-pause', 'bl-speed', 'bl-step-back', 'bl-step', 'bl-reset'];

/** Opens `file` at `viewport` (200 % text with `big`), the widget live and paused, scrolled to. */
async function openWidget(file, root, viewport, big = false) {
  const page = await openPage(env.browser, { viewport });
  if (big) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32, fixed: 26 } });
  }
  await page.goto(`${env.server.url}${file}`);
  const widget = page.locator(root).first();
  await widget.scrollIntoViewIfNeeded();
  await widget.locator('.bl-widget[data-live]').waitFor();
  await page.evaluate((root) => (document.querySelector(root).diagram ?? window.bucketlab.diagram).pause(), root);
  return { page, widget };
}

/** Tabs from just before the widget through all of it: each stop's class and box, in page pixels. */
async function tabThrough(page, root) {
  // The focus starting point: the element just before the widget (the section's intro, embed.html's
  // visually hidden title).
  await page.evaluate((root) => {
    const before = document.querySelector(root).previousElementSibling;
    if (before) {
      before.tabIndex = -1;
      before.focus();
    }
  }, root);
  const stops = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate((root) => {
      let el = document.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      const host = document.querySelector(root);
      if (!host.contains(el) && !host.shadowRoot?.contains(el)) return null;
      // A timeline held to the screen's foot (a phone, see widget.css) is read at its place in
      // the column, which the held one stands in for.
      const held = el.closest('.bl-bottom');
      const position = held?.style.position;
      if (held) held.style.position = 'static';
      const r = el.getBoundingClientRect();
      if (held) held.style.position = position;
      const name = [...el.classList].find((c) => c.startsWith('bl-') && c !== 'bl-button') ?? el.tagName;
      // The group (fieldset) a stop is in: its box, so that groups side by side read one by one.
      const g = el.closest('.bl-group')?.getBoundingClientRect();
      const group = g && { top: g.top + scrollY, bottom: g.bottom + scrollY, left: g.left, right: g.right };
      return { name, group, top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right };
    }, root);
    if (!stop) {
      if (stops.length) break;
      continue;
    }
    stops.push(stop);
  }
  return stops;
}

/** Whether box `b` comes after box `a` in reading order: on the same line further right, or lower. */
const boxAfter = (a, b) => (b.top < a.bottom && a.top < b.bottom ? b.left >= a.left : b.top >= a.bottom - 1);
/** The same for focus stops; stops in two groups (fieldsets) compare the groups' boxes. */
const readsAfter = (a, b) => (a.group && b.group && a.group.left !== b.group.left ? boxAfter(a.group, b.group) : boxAfter(a, b));

for (const [viewport, columns] of [[{ width: 375, height: 812 }, 'one column'], [{ width: 1280, height: 800 }, 'two columns']]) {
  test(`${columns} (${viewport.width} px): Tab goes through the widget in the order it is seen`, async () => {
    for (const [file, root] of CASES) {
      const { page, widget } = await openWidget(file, root, viewport);
      for (let i = 0; i < 6; i += 1) await widget.locator('.bl-send').click();
      await widget.locator('.bl-head:not([hidden])').waitFor();
      const stops = await tabThrough(page, root);
      const where = `${file} at ${viewport.width} px: ${stops.map((s) => `${s.name}@${Math.round(s.top)}`).join(' ')}`;
      assert.deepEqual(stops.map((s) => s.name), STOPS, where);
      // Each stop on the same line further on, or lower down: in two columns too, the send row and
      // the response beside the bucket, the timeline under them, the groups side by side under it.
      for (let i = 1; i < stops.length; i++) {
        assert.ok(readsAfter(stops[i - 1], stops[i]), `${stops[i].name} is above ${stops[i - 1].name}: ${where}`);
      }
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
  });
}

/** The words of `el`'s text that a line break splits (each word's own boxes, one a line). */
const splitWords = (page, root, selector) => page.evaluate(([root, selector]) => {
  const host = document.querySelector(root);
  const scope = host.shadowRoot ?? document;
  const split = [];
  for (const el of scope.querySelectorAll(selector)) {
    if (!el.getClientRects().length) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) split.push(m[0]);
      }
    }
  }
  return split;
}, [root, selector]);

/** The widget's visible groups: each legend's box and line count, its border line, its first control. */
const measureGroups = (page, root) => page.evaluate((root) => {
  const scope = document.querySelector(root).shadowRoot ?? document.querySelector(root);
  return [...scope.querySelectorAll('.bl-group')].filter((g) => g.getClientRects().length).map((g) => {
    const legend = g.querySelector('legend').getBoundingClientRect();
    const first = g.querySelector('legend ~ *:not([hidden])').getBoundingClientRect();
    const box = g.getBoundingClientRect();
    return {
      text: g.querySelector('legend').textContent,
      lines: Math.round(legend.height / parseFloat(getComputedStyle(g.querySelector('legend')).lineHeight)),
      legendTop: legend.top,
      legendBottom: legend.bottom,
      // The top border line's lower edge (a legend on the line would straddle it).
      line: box.top + parseFloat(getComputedStyle(g).borderTopWidth),
      firstTop: first.top,
    };
  });
}, root);

function assertLegendsInside(groups, where) {
  for (const g of groups) {
    assert.ok(g.legendTop >= g.line - 0.5, `"${g.text}" is cut by its border line: ${JSON.stringify(g)}: ${where}`);
    assert.ok(g.legendBottom <= g.firstTop + 0.5, `"${g.text}" runs into its first control: ${JSON.stringify(g)}: ${where}`);
  }
}

test('side by side on a wide screen the three groups\' borders line up, though one title takes two lines', async () => {
  for (const [file, root] of CASES) {
    const { page } = await openWidget(file, root, { width: 1280, height: 800 });
    const where = `${file} at 1280 px`;
    const groups = await measureGroups(page, root);
    assert.equal(groups.length, 3, where);
    // In section 5 the traffic group's title takes two lines (embed.html's wider groups fit it in one).
    if (!file.startsWith('embed')) assert.ok(groups.some((g) => g.lines > 1), `a legend wraps here (${JSON.stringify(groups)}): ${where}`);
    assertLegendsInside(groups, where);
    assert.equal(new Set(groups.map((g) => Math.round(g.line))).size, 1, `one top line: ${JSON.stringify(groups)}: ${where}`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('at 200 % text on a phone the group titles wrap inside their border and titles break between words', async () => {
  for (const width of [320, 375]) {
    for (const [file, root] of CASES) {
      const { page } = await openWidget(file, root, { width, height: 700 }, true);
      const where = `${file} at ${width} px, 200 % text`;
      const groups = await measureGroups(page, root);
      assert.equal(groups.length, 3, where);
      assert.ok(groups.some((g) => g.lines > 1), `a legend wraps here (${JSON.stringify(groups)}): ${where}`);
      assertLegendsInside(groups, where);
      // Each button inside its group's border (Pause's least width was once wider than the group).
      const outside = await page.evaluate((root) => {
        const scope = document.querySelector(root).shadowRoot ?? document.querySelector(root);
        return [...scope.querySelectorAll('.bl-group .bl-button:not([hidden])')].filter((button) =>
          button.getBoundingClientRect().right > button.closest('.bl-group').getBoundingClientRect().right + 0.5).map((b) => b.className);
      }, root);
      assert.deepEqual(outside, [], `buttons past their group's border: ${where}`);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0, `sideways: ${where}`);
      assert.deepEqual(await splitWords(page, root, 'legend'), [], `legends: ${where}`);
      if (!file.startsWith('embed')) {
        assert.deepEqual(await splitWords(page, 'body', '#hero-titulo, #diagrama-titulo'), [], `the widget's titles (the hero's, section 5's): ${where}`);
      }
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
  }
});

test('at 200 % text in a course page\'s narrow column the elements\' words wrap inside their cards, and the page never scrolls sideways', async () => {
  const page = await openPage(env.browser, { viewport: { width: 320, height: 640 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32, fixed: 26 } });
  await page.goto(`${env.server.url}demo/embed-demo.html`);
  await page.waitForFunction(() => [...document.querySelectorAll('bucket-lab')].every((e) => e.shadowRoot?.querySelector('.bl-widget[data-live]')));
  const overflowing = await page.evaluate(() => [...document.querySelectorAll('bucket-lab')].flatMap((element) =>
    [...element.shadowRoot.querySelectorAll('.bl-status, .bl-field-label, .bl-button:not([hidden])')]
      .filter((node) => node.checkVisibility() && node.scrollWidth > node.clientWidth + 1)
      .map((node) => `${element.id || 'bucket-lab'} .${node.classList[0]}: ${node.textContent.trim().slice(0, 40)}`)));
  assert.deepEqual(overflowing, []);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0, 'sideways');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// A reader who sets a larger text size in the browser (Chrome's "Very large" is 24 px; 32 px is
// 200 %): the page's layouts are chosen in em, so at 1280 px the header has room for its title
// (with 17.5rem for the hero beside it, a px layout gave the title a 0 px column, one letter a
// line, and the page scrolled sideways).
test('at 150 % and 200 % text on a laptop the title has its room and the page never scrolls sideways', async () => {
  for (const size of [24, 32]) {
    for (const file of ['index.html', 'en.html']) {
      const page = await openPage(env.browser, { viewport: { width: 1280, height: 800 } });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Page.setFontSizes', { fontSizes: { standard: size, fixed: size } });
      await page.goto(`${env.server.url}${file}`);
      await page.locator('#hero-widget .bl-widget[data-live]').waitFor();
      const where = `${file} at ${size} px text`;
      const { title, overflow, words } = await page.evaluate(() => {
        const h1 = document.querySelector('.page-header h1');
        return { title: h1.getBoundingClientRect().width, overflow: document.documentElement.scrollWidth - innerWidth, words: parseFloat(getComputedStyle(h1).fontSize) };
      });
      assert.ok(title >= 6 * words, `the title is ${title} px wide, at ${words} px a letter: ${where}`);
      assert.equal(overflow, 0, `sideways: ${where}`);
      assert.deepEqual(await splitWords(page, 'body', '.page-header h1, #hero-titulo'), [], where);
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
  }
});
