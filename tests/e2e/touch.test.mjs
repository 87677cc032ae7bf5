// The full widget under a finger, on a phone: a page scroll that starts on the timeline or on a
// slider scrolls the page and changes nothing; a drag along them still scrubs and slides; the
// page holds still under the finger while scrubbing and when "Back to live" is tapped. Touches go
// through Chromium's own input pipeline (CDP Input.dispatchTouchEvent), so the browser decides
// pan or drag as it does for a real finger. Lesson time stands still (the widget's pause).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser } from './harness.mjs';

const env = useBrowser();
const PHONE = { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const W = '#bucket-widget';

/** en.html on a phone, the widget live and paused, eight requests sent (three refused), then 1.5 s, `selector` mid-screen. */
async function openPhone(selector) {
  const page = await openPage(env.browser, PHONE);
  await page.goto(`${env.server.url}en.html`);
  // At once: the page scrolls smoothly, and a smooth scroll still under way would undo `centre`.
  await page.evaluate((W) => document.querySelector(`${W} .bl-widget`).scrollIntoView({ behavior: 'instant' }), W);
  await page.waitForSelector(`${W} .bl-widget[data-live]`);
  await page.evaluate(() => {
    window.bucketlab.diagram.pause();
    for (let i = 0; i < 8; i++) window.bucketlab.diagram.send();
    window.bucketlab.diagram.step(1.5);
  });
  await centre(page, selector);
  const cdp = await page.context().newCDPSession(page);
  return { page, cdp };
}

/** Scrolls so that `selector` sits in the middle of the screen (at once: the page scrolls smoothly). */
async function centre(page, selector) {
  await page.evaluate((s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    scrollBy({ top: r.top + r.height / 2 - innerHeight / 2, behavior: 'instant' });
  }, selector);
  await frames(page);
}

/** Two animation frames: what an event changed is laid out and painted. */
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * A finger from `from` to `to` (CSS pixels in the viewport) in twelve moves a frame apart, held
 * still, then lifted. The events carry their own times (one frame apart, whatever the machine's
 * pace), and the finger stops before it lifts, so the browser never flings the page on.
 */
async function swipe(page, cdp, from, to) {
  let timestamp = Date.now() / 1000;
  const touch = (type, touchPoints) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints, timestamp: (timestamp += 0.016) });
  await touch('touchStart', [from]);
  for (let i = 1; i <= 12; i++) {
    await touch('touchMove', [{ x: from.x + ((to.x - from.x) * i) / 12, y: from.y + ((to.y - from.y) * i) / 12 }]);
    await page.evaluate(() => new Promise(requestAnimationFrame)); // each move drawn, as under a real finger
  }
  for (let i = 0; i < 6; i++) await touch('touchMove', [to]);
  await touch('touchEnd', []);
  await frames(page);
}

/** A finger's tap at `point`: down, and up 50 ms later by the events' own times. */
async function tap(cdp, point) {
  const timestamp = Date.now() / 1000;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point], timestamp });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [], timestamp: timestamp + 0.05 });
}

/** A point at `fx` of `selector`'s width, at its middle height. */
async function pointIn(page, selector, fx) {
  const box = await page.locator(selector).boundingBox();
  return { x: box.x + box.width * fx, y: box.y + box.height / 2 };
}

const state = (page) => page.evaluate((W) => {
  const d = window.bucketlab.diagram;
  return {
    scrollY: Math.round(scrollY),
    past: d.traveling,
    toLive: !document.querySelector(`${W} .bl-to-live`).hidden,
    rate: d.refillRate,
    slider: Number(document.querySelector(`${W} .bl-rate`).value),
  };
}, W);

test('touch: a page scroll that starts on the timeline scrolls the page and stays live; a drag along it goes back in time with the timeline held under the finger', async () => {
  const { page, cdp } = await openPhone(`${W} .bl-scrub`);
  const before = await state(page);
  const start = await pointIn(page, `${W} .bl-scrub`, 0.3);
  await swipe(page, cdp, start, { x: start.x, y: start.y - 200 });
  const scrolled = await state(page);
  assert.ok(scrolled.scrollY > before.scrollY + 100, `the page scrolled: ${JSON.stringify([before, scrolled])}`);
  assert.equal(scrolled.past, false, 'still live');
  assert.equal(scrolled.toLive, false, '"Back to live" stays hidden');

  await centre(page, `${W} .bl-scrub`);
  const top = async () => (await page.locator(`${W} .bl-scrub`).boundingBox()).y;
  // Back to before the first request: the response above the timeline changes all through.
  const [atStart, from, to] = [await top(), await pointIn(page, `${W} .bl-scrub`, 0.95), await pointIn(page, `${W} .bl-scrub`, 0.2)];
  await swipe(page, cdp, from, to);
  const scrubbed = await state(page);
  assert.equal(scrubbed.past, true, 'a moment in the past is shown');
  assert.equal(scrubbed.toLive, true);
  // Within a pixel: a response a fraction of a pixel taller scrolls the page by a whole one.
  const atEnd = await top();
  assert.ok(Math.abs(atEnd - atStart) <= 1, `the timeline stays under the finger: ${atStart} → ${atEnd}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('touch: on a tablet, a drag on the timeline after a 200 that followed 429s holds it under the finger as the response takes the 429\'s room', async () => {
  const page = await openPage(env.browser, { ...PHONE, viewport: { width: 768, height: 1024 } });
  await page.goto(`${env.server.url}en.html`);
  await page.evaluate((W) => document.querySelector(`${W} .bl-widget`).scrollIntoView({ behavior: 'instant' }), W);
  await page.waitForSelector(`${W} .bl-widget[data-live]`);
  // The last response a 200, shorter than the 429s before it, whose room a trip back takes.
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.pause();
    for (let i = 0; i < 7; i++) d.send();
    d.step(1.5);
    d.send();
  });
  await centre(page, `${W} .bl-scrub`);
  const cdp = await page.context().newCDPSession(page);
  const top = async () => (await page.locator(`${W} .bl-scrub`).boundingBox()).y;
  const [atStart, from, to] = [await top(), await pointIn(page, `${W} .bl-scrub`, 0.95), await pointIn(page, `${W} .bl-scrub`, 0.6)];
  await swipe(page, cdp, from, to);
  assert.equal((await state(page)).past, true, 'a moment in the past is shown');
  const atEnd = await top();
  assert.ok(Math.abs(atEnd - atStart) <= 1, `the timeline stays under the finger: ${atStart} → ${atEnd}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('touch: a page scroll that starts on a slider leaves its value alone; a drag along it and a tap still set it', async () => {
  const { page, cdp } = await openPhone(`${W} .bl-rate`);
  const before = await state(page);
  const start = await pointIn(page, `${W} .bl-rate`, 0.7);
  await swipe(page, cdp, start, { x: start.x, y: start.y - 200 });
  const scrolled = await state(page);
  assert.ok(scrolled.scrollY > before.scrollY + 100, `the page scrolled: ${JSON.stringify([before, scrolled])}`);
  assert.deepEqual([scrolled.rate, scrolled.slider], [1, 1], 'r is still 1');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.scenario.includes('c')), false, 'no change of r in the log');

  await centre(page, `${W} .bl-rate`);
  const from = await pointIn(page, `${W} .bl-rate`, 0.1);
  await swipe(page, cdp, from, { x: from.x + 120, y: from.y });
  const slid = await state(page);
  assert.ok(slid.rate > 1, `a drag along the slider raises r: ${JSON.stringify(slid)}`);
  assert.equal(slid.slider, slid.rate);

  await tap(cdp, await pointIn(page, `${W} .bl-rate`, 0.05));
  await page.waitForFunction((rate) => window.bucketlab.diagram.refillRate < rate, slid.rate);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('touch: at a past moment the bucket holds to the top of a phone while its Time group steps it, and lets go back live (not on a phone on its side)', async () => {
  const { page, cdp } = await openPhone(`${W} .bl-step-back`);
  const bucket = () => page.evaluate((W) => {
    const r = document.querySelector(`${W} .bl-diagram`).getBoundingClientRect();
    return { top: Math.round(r.top), bottom: Math.round(r.bottom), counter: document.querySelector(`${W} .bl-counter`).textContent };
  }, W);
  const live = await bucket();
  assert.ok(live.bottom < 0, `live, the bucket is above the screen: ${JSON.stringify(live)}`);
  await tap(cdp, await pointIn(page, `${W} .bl-step-back`, 0.5));
  await page.waitForSelector(`${W} .bl-to-live:not([hidden])`);
  await frames(page);
  const held = await bucket();
  assert.ok(held.top >= 0 && held.bottom <= 667 / 2, `held at the top: ${JSON.stringify(held)}`);
  // A host page with its own sticky header says how tall it is, and the bucket holds under it.
  const hostTop = (value) => page.evaluate(([W, value]) => document.querySelector(W).style.setProperty('--bl-sticky-top', value), [W, value]);
  await hostTop('48px');
  await page.waitForFunction((W) => Math.round(document.querySelector(`${W} .bl-diagram`).getBoundingClientRect().top) === 48, W);
  await hostTop('');
  await page.waitForFunction((W) => Math.round(document.querySelector(`${W} .bl-diagram`).getBoundingClientRect().top) === 0, W);
  // Nothing it covers is what the reader taps: Step back is still under the finger, and a step shows.
  const back = await pointIn(page, `${W} .bl-step-back`, 0.5);
  assert.equal(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y).classList.contains('bl-step-back'), back), true);
  await tap(cdp, back);
  await page.waitForFunction(([W, was]) => document.querySelector(`${W} .bl-counter`).textContent !== was, [W, held.counter]);
  const expected = await page.evaluate(() => window.bucketlab.diagram.tokens.toFixed(1));
  assert.equal((await bucket()).counter, `${expected} / 5`, 'the held counter is the moment shown');
  await tap(cdp, await pointIn(page, `${W} .bl-to-live`, 0.5));
  await page.waitForSelector(`${W} .bl-to-live[hidden]`, { state: 'attached' });
  await frames(page);
  assert.ok((await bucket()).bottom < 0, 'live again, it is back in its place above the screen');
  // On its side (667 × 375) the bucket would fill the screen: it stays in its place.
  await page.setViewportSize({ width: 667, height: 375 });
  await page.evaluate(() => window.bucketlab.diagram.stepBack());
  await page.waitForSelector(`${W} .bl-to-live:not([hidden])`);
  await centre(page, `${W} .bl-step-back`);
  assert.ok((await bucket()).bottom < 0, 'not held on a phone on its side');
  // A small phone upright (320 × 568) holds it, and holds the timeline to its foot: with the 429's
  // response, the timeline starts over 900 px under the bucket's top there.
  await page.setViewportSize({ width: 320, height: 568 });
  await centre(page, `${W} .bl-step-back`);
  await frames(page);
  const small = await bucket();
  assert.ok(small.top >= 0 && small.bottom <= 568 / 2, `held at the top of a small phone: ${JSON.stringify(small)}`);
  await page.evaluate(() => window.bucketlab.diagram.live());
  // Scrolled until the response starts 100 px over the foot: the timeline is held there, its
  // whole height on the screen, with the bucket's counter above it.
  await page.evaluate((W) => scrollBy({ top: document.querySelector(`${W} .bl-reply`).getBoundingClientRect().top - (568 - 100), behavior: 'instant' }), W);
  await frames(page);
  const scrub = await page.locator(`${W} .bl-scrub`).boundingBox();
  const counter = await page.locator(`${W} .bl-counter`).boundingBox();
  assert.ok(Math.abs(scrub.y + scrub.height - 568) <= 0.5, `the timeline held at the foot of a small phone: ${JSON.stringify(scrub)}`);
  assert.ok(counter.y >= 0 && counter.y + counter.height <= scrub.y, `the counter on the screen above it: ${JSON.stringify(counter)}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('keyboard on a phone-sized window: at a past moment the bucket is not held while the keyboard is in the widget, so nothing it focuses hides behind it', async () => {
  const { page, cdp } = await openPhone(`${W} .bl-step-back`);
  await tap(cdp, await pointIn(page, `${W} .bl-step-back`, 0.5));
  await page.waitForSelector(`${W} .bl-to-live:not([hidden])`);
  const held = () => page.evaluate((W) => getComputedStyle(document.querySelector(`${W} .bl-diagram`)).position === 'sticky', W);
  assert.equal(await held(), true, 'held after a tap');
  // The rate slider just under where the held bucket's middle would be; the keyboard reaches it.
  await page.evaluate((W) => {
    const bucket = document.querySelector(`${W} .bl-diagram`).getBoundingClientRect();
    const rate = document.querySelector(`${W} .bl-rate`).getBoundingClientRect();
    scrollBy({ top: rate.top - bucket.height / 2, behavior: 'instant' });
  }, W);
  await page.focus(`${W} .bl-traffic`);
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains('bl-rate')), true);
  await page.waitForFunction((W) => {
    const rate = document.querySelector(`${W} .bl-rate`).getBoundingClientRect();
    const under = document.elementFromPoint(rate.left + rate.width / 2, rate.top + rate.height / 2);
    return under?.classList.contains('bl-rate') && rate.top >= 0 && rate.bottom <= innerHeight;
  }, W);
  assert.equal(await held(), false, 'let go while the keyboard is in the widget');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('touch: tapping "Back to live" with the Pause button above the screen does not jump the page', async () => {
  const { page, cdp } = await openPhone(`${W} .bl-step-back`);
  await page.evaluate(() => window.bucketlab.diagram.stepBack());
  await page.waitForSelector(`${W} .bl-to-live:not([hidden])`);
  // The group's top (its Pause button) just out of sight, under the bucket held to the screen's
  // top at a past moment; "Back to live" on the screen.
  await page.evaluate((W) => {
    const hidden = document.querySelector(`${W} .bl-diagram`).getBoundingClientRect().bottom;
    scrollBy({ top: document.querySelector(`${W} .bl-pause`).getBoundingClientRect().top - hidden + 15, behavior: 'instant' });
  }, W);
  await frames(page);
  const before = await state(page);
  const target = await pointIn(page, `${W} .bl-to-live`, 0.5);
  assert.ok(target.y > 0, 'the button is on the screen');
  // A phone's browser focuses a button it taps (not always so in this emulation): it has focus.
  await page.evaluate((W) => document.querySelector(`${W} .bl-to-live`).focus({ preventScroll: true }), W);
  await tap(cdp, target);
  await page.waitForSelector(`${W} .bl-to-live[hidden]`, { state: 'attached' });
  await frames(page);
  const after = await state(page);
  assert.equal(after.past, false, 'live again');
  // Focus goes on to Pause (above the screen) without scrolling to it: the page moved 25 px before.
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains('bl-pause')), true, 'focus on Pause');
  assert.ok(Math.abs(after.scrollY - before.scrollY) <= 5, `the page stays put: ${before.scrollY} → ${after.scrollY}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('touch: with a 429 on screen, the timeline holds to the foot of a phone showing the bucket, a drag on it shows the bucket then, and it returns to its place under the response', async () => {
  const { page, cdp } = await openPhone(`${W} .bl-diagram`);
  // The bucket's top at the screen's top: the response (a 429's head) reaches past the foot.
  await page.evaluate((W) => scrollBy({ top: document.querySelector(`${W} .bl-diagram`).getBoundingClientRect().top - 8, behavior: 'instant' }), W);
  await frames(page);
  const box = (s) => page.locator(`${W} ${s}`).boundingBox();
  const [diagram, panel, scrub] = [await box('.bl-diagram'), await box('.bl-panel'), await box('.bl-scrub')];
  assert.ok(panel.y + panel.height > 667, `the response reaches past the screen: ${JSON.stringify(panel)}`);
  assert.ok(scrub.y + scrub.height <= 667 + 0.5 && scrub.y >= diagram.y + diagram.height,
    `the timeline on screen under the bucket: ${JSON.stringify({ diagram, scrub })}`);
  assert.equal(await page.textContent(`${W} .bl-counter`), '1.5 / 5');
  // Focused from the keyboard there, its whole focus ring is on the screen.
  await page.keyboard.press('Shift');
  const ring = await page.evaluate((W) => {
    const scrub = document.querySelector(`${W} .bl-scrub`);
    scrub.focus({ preventScroll: true });
    const style = getComputedStyle(scrub);
    const reach = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
    return { visible: scrub.matches(':focus-visible'), bottom: scrub.getBoundingClientRect().bottom + Math.max(0, reach), height: innerHeight };
  }, W);
  assert.ok(ring.visible && ring.bottom <= ring.height + 0.5, `the focus ring inside the screen: ${JSON.stringify(ring)}`);
  await page.evaluate(() => document.activeElement.blur());

  const [from, to] = [await pointIn(page, `${W} .bl-scrub`, 0.95), await pointIn(page, `${W} .bl-scrub`, 0.2)];
  await swipe(page, cdp, from, to);
  const then = await page.evaluate(() => ({ past: window.bucketlab.diagram.traveling, tokens: window.bucketlab.diagram.tokens }));
  assert.equal(then.past, true, 'a moment in the past is shown');
  assert.notEqual(await page.textContent(`${W} .bl-counter`), '1.5 / 5', 'the bucket on screen shows that moment');
  assert.ok((await box('.bl-diagram')).y >= 0, 'the bucket is still on screen');

  // Scrolled down past the response, the timeline is back under it, in the column.
  await page.evaluate((W) => scrollBy({ top: document.querySelector(`${W} .bl-panel`).getBoundingClientRect().bottom - 200, behavior: 'instant' }), W);
  await frames(page);
  const [panelAfter, scrubAfter] = [await box('.bl-panel'), await box('.bl-scrub')];
  assert.ok(scrubAfter.y >= panelAfter.y + panelAfter.height, `under the response again: ${JSON.stringify({ panelAfter, scrubAfter })}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('touch: the held timeline never covers the send button, the bucket or the 429 it got: landing on the diagram, with the button at the foot after a 429, and with the status there', async () => {
  const page = await openPage(env.browser, { ...PHONE, viewport: { width: 375, height: 812 } });
  await page.goto(`${env.server.url}en.html#diagrama`);
  await page.waitForSelector(`${W} .bl-widget[data-live]`);
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await frames(page);
  /** What a finger finds at points along the send button's middle and near its foot: the button. */
  const uncovered = async () => page.evaluate((W) => {
    const send = document.querySelector(`${W} .bl-send`);
    const r = send.getBoundingClientRect();
    const ys = [r.top + r.height / 2, r.bottom - 2].filter((y) => y >= 0 && y < innerHeight);
    const diagram = document.querySelector(`${W} .bl-diagram`).getBoundingClientRect();
    const scrub = document.querySelector(`${W} .bl-scrub`).getBoundingClientRect();
    return {
      hits: ys.map((y) => send.contains(document.elementFromPoint(r.left + r.width / 2, y))),
      onScreen: ys.length,
      overBucket: scrub.top < diagram.bottom && scrub.bottom > diagram.top,
    };
  }, W);
  // Where the contents link lands (the send button low on the screen), before any request.
  let seen = await uncovered();
  assert.ok(seen.onScreen > 0, 'the send button is on the first screen of the section');
  assert.deepEqual(seen.hits, seen.hits.map(() => true), 'nothing covers the send button');
  assert.equal(seen.overBucket, false, 'the timeline is not over the bucket');
  await page.tap(`${W} .bl-send`);
  await page.waitForFunction((W) => document.querySelector(`${W} .bl-counter`).textContent === '4.0 / 5', W);
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.traveling), false, 'the tap sent; it did not scrub');

  // After a 429 (a tall response), the button's foot at the screen's foot.
  await page.evaluate(() => { for (let i = 0; i < 6; i++) window.bucketlab.diagram.send(); });
  await page.waitForSelector(`${W} .bl-head:not([hidden])`);
  await page.evaluate((W) => scrollBy({ top: document.querySelector(`${W} .bl-send`).getBoundingClientRect().bottom - innerHeight + 1, behavior: 'instant' }), W);
  await frames(page);
  seen = await uncovered();
  assert.equal(seen.onScreen, 2);
  assert.deepEqual(seen.hits, [true, true], 'nothing covers the send button');
  assert.equal(seen.overBucket, false, 'the timeline is not over the bucket');

  // The 429 that tap got is never under the timeline either: with its status line and countdown
  // low on the screen, at the foot, or half below it, a point on any of their on-screen part is theirs.
  for (const above of [150, 60, 0, -30]) {
    await page.evaluate(([W, above]) => scrollBy({
      top: document.querySelector(`${W} .bl-countdown`).getBoundingClientRect().bottom - innerHeight + above,
      behavior: 'instant',
    }), [W, above]);
    await frames(page);
    const covered = await page.evaluate((W) => ['.bl-status', '.bl-countdown'].flatMap((line) => {
      const r = document.querySelector(`${W} ${line}`).getBoundingClientRect();
      return [r.top + 3, r.top + r.height / 2, r.bottom - 3].filter((y) => y >= 0 && y < innerHeight)
        .filter((y) => !document.querySelector(`${W} ${line}`).contains(document.elementFromPoint(r.left + 20, y)))
        .map((y) => `${line} at ${Math.round(y)} of ${innerHeight}`);
    }), W);
    assert.match(await page.textContent(`${W} .bl-countdown`), /left/, 'the countdown is shown');
    assert.deepEqual(covered, [], `${above} px above the foot: nothing covers the outcome`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('on a phone the held timeline lets go while the keyboard is on the response head it would cover, and a phone on its side never holds it', async () => {
  const page = await openPage(env.browser, { ...PHONE, viewport: { width: 390, height: 664 } });
  await page.goto(`${env.server.url}en.html`);
  await page.waitForSelector(`${W} .bl-widget[data-live]`);
  await page.evaluate(() => {
    window.bucketlab.diagram.pause();
    for (let i = 0; i < 7; i++) window.bucketlab.diagram.send();
  });
  // The send button low on the screen, the response under the fold: then Tab to the head.
  await page.evaluate((W) => scrollBy({ top: document.querySelector(`${W} .bl-send`).getBoundingClientRect().bottom - innerHeight + 160, behavior: 'instant' }), W);
  await frames(page);
  const held = () => page.evaluate((W) => getComputedStyle(document.querySelector(`${W} .bl-bottom`)).position, W);
  assert.equal(await held(), 'sticky', 'held while nothing under it has the focus');
  await page.focus(`${W} .bl-send`);
  for (let i = 0; i < 10 && !(await page.evaluate(() => document.activeElement.matches('.bl-head'))); i++) await page.keyboard.press('Tab');
  await frames(page);
  const seen = await page.evaluate((W) => {
    const head = document.querySelector(`${W} .bl-head`).getBoundingClientRect();
    const scrub = document.querySelector(`${W} .bl-bottom`).getBoundingClientRect();
    return { focused: document.activeElement.matches('.bl-head:focus-visible'), overlap: Math.max(0, Math.min(head.bottom, scrub.bottom) - Math.max(head.top, scrub.top)) };
  }, W);
  assert.deepEqual(seen, { focused: true, overlap: 0 }, 'the focused head is not under the timeline');
  assert.notEqual(await held(), 'sticky');
  // On its side (342 px tall) the timeline stays in the column.
  await page.setViewportSize({ width: 750, height: 342 });
  await page.focus(`${W} .bl-send`);
  await frames(page);
  assert.notEqual(await held(), 'sticky');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
