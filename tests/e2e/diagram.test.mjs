// The live diagram's controls, accessibility and frame budget, end to end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, waitForWidget } from './harness.mjs';

const env = useBrowser();

const counter = (page) => page.textContent('#bucket-widget .bl-counter');

/**
 * Presses Tab (or Shift+Tab when the target comes earlier in the page) until the focused element
 * matches `selector`: it must be reachable by keyboard, with a visible focus.
 */
async function tabTo(page, selector) {
  const backwards = await page.evaluate((s) => {
    const target = document.querySelector(s);
    const from = document.activeElement;
    if (!target || !from || from === document.body) return false;
    return Boolean(target.compareDocumentPosition(from) & Node.DOCUMENT_POSITION_FOLLOWING);
  }, selector);
  for (let i = 0; i < 80; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) {
      assert.ok(await page.evaluate(() => document.activeElement.matches(':focus-visible')),
        `${selector} shows a visible focus`);
      return;
    }
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  assert.fail(`${selector} is not reachable with Tab`);
}

/** Counts requestAnimationFrame callbacks that actually run, from page start. */
const countFrames = () => {
  window.__frames = 0;
  const original = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => original((t) => { window.__frames += 1; callback(t); });
};

test('every control works from the keyboard alone', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}?capacity=10&refill-rate=5`);
  await waitForWidget(page);
  const w = '#bucket-widget';

  await tabTo(page, `${w} .bl-pause`);
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute(`${w} .bl-pause`, 'aria-pressed'), 'true');
  const paused = await counter(page);

  await tabTo(page, `${w} .bl-send`);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Space');
  const tokensAfter = (text) => parseFloat(text.replace(',', '.'));
  assert.equal(tokensAfter(await counter(page)), Math.floor((tokensAfter(paused) - 2) * 10) / 10);

  // Bring the bucket to a known state: reset refills it to 10 at the paused instant.
  await tabTo(page, `${w} .bl-reset`);
  await page.keyboard.press('Enter');
  assert.equal(await counter(page), '10,0 / 10');

  await tabTo(page, `${w} .bl-cost`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await tabTo(page, `${w} .bl-burst-size`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('3');
  await tabTo(page, `${w} .bl-burst`);
  await page.keyboard.press('Enter');
  assert.equal(await counter(page), '4,0 / 10', 'a burst of 3 requests of cost 2');

  await tabTo(page, `${w} .bl-step`);
  await page.keyboard.press('Enter');
  assert.equal(await counter(page), '4,5 / 10', 'one step is 0.1 s at r = 5');

  await tabTo(page, `${w} .bl-capacity`);
  await page.keyboard.press('ArrowRight');
  assert.equal(await counter(page), '4,5 / 11');
  assert.match(await page.textContent(`${w} .bl-diagram`), /B = 11/);

  await tabTo(page, `${w} .bl-rate`);
  await page.keyboard.press('ArrowRight');
  assert.match(await page.textContent(`${w} .bl-diagram`), /r = 5,5 token\/s/);

  await tabTo(page, `${w} .bl-traffic`);
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.inputValue(`${w} .bl-traffic`), 'steady');
  await tabTo(page, `${w} .bl-step`);
  for (let i = 0; i < 5; i++) await page.keyboard.press('Enter');
  // 8 requests/s for 0.5 s: 4 arrivals of cost 2 against 4.5 + 0.5·5.5 tokens.
  assert.ok((await page.getAttribute(`${w} .bl-tl-admitted`, 'd')).length > 0, 'admitted marks on the timeline');

  await tabTo(page, `${w} .bl-speed`);
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.inputValue(`${w} .bl-speed`), '4');

  await tabTo(page, `${w} .bl-cost`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('99');
  await tabTo(page, `${w} .bl-send`);
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent(`${w} .bl-input-error`), 'cost must be a whole number from 1 to 11, got 99');

  await tabTo(page, `${w} .bl-reset`);
  await page.keyboard.press('Enter');
  assert.equal(await counter(page), '10,0 / 10');
  assert.equal(await page.inputValue(`${w} .bl-traffic`), 'off');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('paused time moves only by steps, so counts are exact', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}?capacity=10&refill-rate=5&tokens=0`);
  await waitForWidget(page);
  await page.evaluate(() => window.bucketlab.diagram.pause());
  const start = await page.evaluate(() => window.bucketlab.diagram.tokens);
  await page.click('#bucket-widget .bl-step');
  await page.click('#bucket-widget .bl-step');
  const after = await page.evaluate(() => window.bucketlab.diagram.tokens);
  assert.ok(Math.abs(after - start - 1) < 1e-9, `two steps of 0.1 s at r = 5 add 1 token (${start} → ${after})`);
  await page.context().close();
});

test('reduced motion hides the drops and the flying request, the numbers still update', async () => {
  const page = await openPage(env.browser, { reducedMotion: 'reduce' });
  await page.goto(env.server.url);
  await waitForWidget(page);
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await page.click('#bucket-widget .bl-reset');
  await page.click('#bucket-widget .bl-send');
  const hidden = await page.$$eval('#bucket-widget .bl-drop, #bucket-widget .bl-request',
    (els) => els.every((e) => getComputedStyle(e).display === 'none'));
  assert.ok(hidden, 'no animated drops or markers');
  assert.equal(await counter(page), '4,0 / 5');
  await page.click('#bucket-widget .bl-step');
  assert.equal(await counter(page), '4,1 / 5');
  await page.context().close();
});

test('a full idle bucket runs no animation frames; removing a widget stops its loop', async () => {
  const page = await openPage(env.browser);
  await page.addInitScript(countFrames);
  await page.goto(env.server.url);
  await waitForWidget(page);
  await page.waitForFunction(() => !window.bucketlab.diagram.isAnimating);
  const before = await page.evaluate(() => window.__frames);
  await page.waitForTimeout(2000); // the measurement window itself
  assert.equal(await page.evaluate(() => window.__frames), before, 'no frame callbacks in 2 s');

  await page.click('#bucket-widget .bl-send');
  await page.waitForFunction((n) => window.__frames > n + 2, before);
  await page.evaluate(() => { window.bucketlab.diagram.free(); window.__afterFree = window.__frames; });
  await page.waitForTimeout(500); // the measurement window itself
  assert.ok(await page.evaluate(() => window.__frames - window.__afterFree) <= 1,
    'at most a frame already queued runs after removal');
  assert.equal(await page.locator('#bucket-widget .bl-widget').count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('decisions are announced politely, at most one sentence per 1.5 s', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}?capacity=10`);
  await waitForWidget(page);
  assert.equal(await page.getAttribute('#bucket-widget .bl-live', 'aria-live'), 'polite');
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await page.click('#bucket-widget .bl-send');
  await page.click('#bucket-widget .bl-send');
  await page.click('#bucket-widget .bl-send');
  assert.equal(await page.textContent('#bucket-widget .bl-live'), 'Admitida: restam 9 tokens.');
  await page.waitForFunction(() => document.querySelector('#bucket-widget .bl-live').textContent.startsWith('2 requisições'));
  assert.equal(await page.textContent('#bucket-widget .bl-live'), '2 requisições (admitidas: 2, negadas: 0); tokens restantes: 7.');
  await page.context().close();
});

test('a summed-up announcement reads right when a count is 1 (label first, no plural to get wrong)', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}en.html?capacity=2`);
  await waitForWidget(page);
  await page.evaluate(() => window.bucketlab.diagram.pause());
  for (let i = 0; i < 3; i++) await page.click('#bucket-widget .bl-send');
  assert.equal(await page.textContent('#bucket-widget .bl-live'), 'Admitted: 1 token left.');
  await page.waitForFunction(() => document.querySelector('#bucket-widget .bl-live').textContent.startsWith('2 requests'));
  assert.equal(await page.textContent('#bucket-widget .bl-live'), '2 requests (admitted: 1, denied: 1); tokens left: 0.');
  await page.context().close();
});

test('off screen the frame loop stops; back on screen it resumes with the right state', async () => {
  const page = await openPage(env.browser, { viewport: { width: 1000, height: 700 } });
  await page.goto(`${env.server.url}?capacity=1000&refill-rate=1&tokens=0`);
  await waitForWidget(page);
  await page.locator('#bucket-widget').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.bucketlab.diagram.isAnimating, null, { polling: 50 });
  await page.evaluate(() => document.querySelector('#faq').scrollIntoView());
  await page.waitForFunction(() => !window.bucketlab.diagram.isAnimating, null, { polling: 50 });
  await page.locator('#bucket-widget').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.bucketlab.diagram.isAnimating, null, { polling: 50 });
  // The counter shows the core's value for the current time, not a value frozen while away.
  await page.waitForFunction(() => {
    const shown = parseFloat(document.querySelector('#bucket-widget .bl-counter').textContent.replace(',', '.'));
    return Math.abs(shown - window.bucketlab.diagram.tokens) < 0.2;
  });
  await page.context().close();
});
