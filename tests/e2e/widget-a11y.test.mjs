// The section-5 widget with a keyboard and a screen reader's ears: where focus goes when the widget
// hides or disables the focused control, what the live region says (every press, a refused send,
// a reset, a step through time) and how the timeline slider and the pause button read. Lesson time
// is driven by the diagram's own clock (pause, step); the live region's own pace (one sentence per
// 1.5 s of wall time, src/view/announce.rs) is waited for through what it writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './harness.mjs';
import { openLesson } from './lesson-helpers.mjs';

const env = useBrowser();
const W = '#bucket-widget';

/** The selector the focused element matches among `selectors`, or its tag name. */
const focused = (page, selectors) => page.evaluate((list) => {
  const active = document.activeElement;
  return list.find((s) => active?.matches(s)) ?? active?.tagName;
}, selectors);

/** Presses Tab until `selector` has focus (it must be reachable in a few presses). */
async function tabTo(page, selector) {
  for (let i = 0; i < 12; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`${selector} is not reachable with Tab`);
}

/**
 * Records every text the live region takes from now on (with its wall time), as a screen reader
 * would hear it: a write of the same text is no change and is not heard.
 */
const listen = (page) => page.evaluate((w) => {
  const live = document.querySelector(`${w} .bl-live`);
  window.__heard = [];
  new MutationObserver(() => {
    window.__heard.push({ text: live.textContent, at: performance.now() });
  }).observe(live, { childList: true, characterData: true, subtree: true });
}, W);

/** What the live region said so far (the texts, trimmed; clearing it says nothing). */
const heard = (page) => page.evaluate(() => window.__heard.map((h) => h.text.trim()).filter(Boolean));

/** Waits until the live region said `n` things. */
const hearN = (page, n) => page.waitForFunction(
  (count) => window.__heard.filter((h) => h.text.trim()).length >= count, n, { timeout: 6000 });

const ALL = [`${W} .bl-pause`, `${W} .bl-step`, `${W} .bl-step-back`, `${W} .bl-to-live`, `${W} .bl-scrub`];

test('keyboard: "Back to live" and "Step" hand focus to Pause when they hide or disable themselves', async () => {
  const page = await openLesson(env, 'en.html');
  // Time running: "Step back" stops it at a past moment, "Back to live" runs it again.
  await page.focus(`${W} .bl-step-back`);
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.traveling), true);
  await tabTo(page, `${W} .bl-to-live`);
  await page.keyboard.press('Enter');
  assert.equal(await page.isHidden(`${W} .bl-to-live`), true, '"Back to live" hid itself');
  assert.equal(await focused(page, ALL), `${W} .bl-pause`, 'focus on Pause, not on the body');
  assert.ok(await page.evaluate(() => document.activeElement.matches(':focus-visible')));

  // "Step 0.1 s" at the last past moment goes back to live, which runs time again: Step is disabled.
  await page.focus(`${W} .bl-step-back`);
  await page.keyboard.press('Enter');
  await tabTo(page, `${W} .bl-step`);
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.traveling), false);
  assert.equal(await page.isDisabled(`${W} .bl-step`), true, 'time runs: Step is disabled');
  assert.equal(await focused(page, ALL), `${W} .bl-pause`);
  // Enter again does what the focused button says.
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.paused), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the pause button says what it does, with no pressed state on top ("Resume, pressed" read both ways)', async () => {
  for (const [path, pause, resume] of [['en.html', 'Pause', 'Resume'], ['', 'Pausar', 'Continuar']]) {
    const page = await openLesson(env, path);
    const button = page.locator(`${W} .bl-pause`);
    assert.equal(await button.getAttribute('aria-pressed'), null, 'the markup: no toggle state');
    await button.focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => window.bucketlab.diagram.paused), true);
    assert.deepEqual([await button.textContent(), await button.getAttribute('aria-pressed')], [resume, null]);
    await page.keyboard.press('Enter');
    assert.deepEqual([await button.textContent(), await button.getAttribute('aria-pressed')], [pause, null]);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});
