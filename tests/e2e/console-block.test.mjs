// Section 5's console block ("From the browser's console"): for a computer, so on a phone (whose
// browser has no console) it starts collapsed behind a summary that opens it from the keyboard; on
// a computer, and without JavaScript, it is open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './harness.mjs';
import { openLesson } from './lesson-helpers.mjs';

const env = useBrowser();
const BLOCK = '#console-block';

for (const [path, summary] of [['', 'Experimentos no console do navegador (num computador)'], ['en.html', "Experiments in the browser's console (on a computer)"]]) {
  test(`console block (${path || 'index.html'}): collapsed at 375 px, its summary reached by Tab and opened with Enter`, async () => {
    const page = await openLesson(env, path, { viewport: { width: 375, height: 800 } });
    assert.equal(await page.textContent(`${BLOCK} > summary`), summary);
    assert.equal(await page.evaluate((sel) => document.querySelector(sel).open, BLOCK), false);
    assert.equal(await page.isVisible(`${BLOCK} pre.console`), false, 'the example is hidden');
    // From the heading before it, the next Tab stop is the summary.
    await page.evaluate(() => {
      const heading = document.getElementById('diagrama-console');
      heading.tabIndex = -1;
      heading.focus();
    });
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.matches('#console-block > summary')), true);
    await page.keyboard.press('Enter');
    await page.waitForFunction((sel) => document.querySelector(sel).open, BLOCK);
    assert.equal(await page.isVisible(`${BLOCK} pre.console`), true, 'the example is shown');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('console block: open at 1280 px', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 1280, height: 800 } });
  assert.equal(await page.evaluate((sel) => document.querySelector(sel).open, BLOCK), true);
  await page.locator(`${BLOCK} pre.console`).scrollIntoViewIfNeeded();
  assert.equal(await page.isVisible(`${BLOCK} pre.console`), true);
  await page.context().close();
});

test('console block: without JavaScript it is open, at 375 px too (nothing would open it again)', async () => {
  const context = await env.browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  await page.goto(env.server.url);
  assert.equal(await page.getAttribute(BLOCK, 'open'), '');
  await page.locator(`${BLOCK} pre.console`).scrollIntoViewIfNeeded();
  assert.equal(await page.isVisible(`${BLOCK} pre.console`), true);
  await context.close();
});

test('console block: collapsed on a touch tablet at 1024 px too (no hover, coarse pointer: no console there)', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 1024, height: 768 }, hasTouch: true, isMobile: true });
  assert.equal(await page.evaluate(() => matchMedia('(hover: none) and (pointer: coarse)').matches), true, 'emulated as a touch device');
  assert.equal(await page.evaluate((sel) => document.querySelector(sel).open, BLOCK), false);
  await page.context().close();
});
