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
  for (let i = 0; i < 20; i++) {
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

/** Clicks the widget's controls named by `selectors`, in order, in one task: presses within one gap. */
const pressAtOnce = (page, selectors) => page.evaluate(([w, list]) => {
  for (const s of list) document.querySelector(`${w} ${s}`).click();
}, [W, selectors]);

const ALL = [`${W} .bl-pause`, `${W} .bl-step`, `${W} .bl-step-back`, `${W} .bl-to-live`, `${W} .bl-scrub`];

test('keyboard: "Back to live" hands focus to Pause as it hides; "Step 0.1 s" reaching live keeps time stopped and its focus', async () => {
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

  // "Step 0.1 s" at the last past moment reaches live with time still stopped, as stepping frame
  // by frame does: Step stays enabled under the reader's finger (before, time ran again, Step
  // disabled itself and focus went to Pause, whose next Enter paused).
  // As on a slow machine, every reading of the clock is 2 ms later than the one before: the step
  // back must stop time at the "now" it stepped back from, or the step forward falls short of it.
  await page.evaluate(() => {
    const now = performance.now.bind(performance);
    let last = 0;
    performance.now = () => (last = Math.max(now(), last + 2));
  });
  await page.focus(`${W} .bl-step-back`);
  await page.keyboard.press('Enter');
  await tabTo(page, `${W} .bl-step`);
  await page.keyboard.press('Enter');
  const diagram = () => page.evaluate(() => ({ traveling: window.bucketlab.diagram.traveling, paused: window.bucketlab.diagram.paused, now: window.bucketlab.diagram.now }));
  const live = await diagram();
  assert.deepEqual([live.traveling, live.paused], [false, true], 'live, time stopped');
  assert.equal(await page.isDisabled(`${W} .bl-step`), false);
  assert.equal(await focused(page, ALL), `${W} .bl-step`);
  // Enter again does what the focused button says: a step of lesson time, live.
  await page.keyboard.press('Enter');
  const stepped = await diagram();
  assert.deepEqual([stepped.traveling, stepped.paused], [false, true]);
  assert.ok(Math.abs(stepped.now - live.now - 0.1) < 1e-9, `${stepped.now} − ${live.now}`);
  // "Back to live" and End still run time again if it ran before.
  await page.focus(`${W} .bl-step-back`);
  await page.keyboard.press('Enter');
  await page.focus(`${W} .bl-scrub`);
  await page.keyboard.press('End');
  assert.deepEqual([(await diagram()).traveling, (await diagram()).paused], [false, true], 'paused before the step back: stays paused');
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

test('live region: a second Send with the same outcome is said again, a batch counts every press', async () => {
  const page = await openLesson(env, 'en.html?capacity=5&refill-rate=1');
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await listen(page);
  await page.focus(`${W} .bl-send`);
  await page.keyboard.press('Enter');
  await hearN(page, 1);
  // The region's own pace: the next sentence comes a gap (1.5 s of wall time) after this one.
  await page.waitForFunction(() => performance.now() - window.__heard.at(-1).at > 1600);
  await page.evaluate(() => window.bucketlab.diagram.step(1));
  await page.keyboard.press('Enter');
  await hearN(page, 2);
  assert.deepEqual(await heard(page), ['Admitted: 4 tokens left.', 'Admitted: 4 tokens left.'],
    'the same outcome twice: said twice');

  assert.deepEqual(page.problems, []);
  await page.context().close();

  // Six quick presses: the first is said at once, then one sentence counts all six.
  const again = await openLesson(env, 'en.html?capacity=5&refill-rate=1');
  await again.evaluate(() => window.bucketlab.diagram.pause());
  await listen(again);
  await again.focus(`${W} .bl-send`);
  for (let i = 0; i < 6; i++) await again.keyboard.press('Enter');
  await hearN(again, 2);
  const [first, summed] = await heard(again);
  assert.equal(first, 'Admitted: 4 tokens left.');
  // The latest was a 429: said after the count (a run of quick clicks ends no batch).
  assert.match(summed, /^6 requests \(admitted: 5, denied: 1\); tokens left: 0\. Denied: 429 with Retry\u2011After: 1 /);
  assert.deepEqual(again.problems, []);
  await again.context().close();
});

test('live region: a send refused for its cost is shown and said at every press; Reset is said and clears the old words', async () => {
  const page = await openLesson(env, '?capacity=5');
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await listen(page);
  await page.focus(`${W} .bl-cost`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('9');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(page, [`${W} .bl-send`]), `${W} .bl-send`);
  await page.keyboard.press('Enter');
  const refusal = 'Não enviada: Custo c: 9 não é permitido; use um número inteiro de 1 a 5.';
  assert.equal(await page.textContent(`${W} .bl-status`), refusal);
  assert.equal(await page.getAttribute(`${W} .bl-status`, 'data-outcome'), 'refused');
  await page.keyboard.press('Enter');
  await hearN(page, 2);
  assert.deepEqual(await heard(page), [refusal, refusal], 'each press is said');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.tokens), 5, 'nothing was sent');

  await tabTo(page, `${W} .bl-reset`);
  await page.keyboard.press('Enter');
  assert.equal((await page.textContent(`${W} .bl-live`)).trim(), '', 'the old words are gone at once');
  await hearN(page, 3);
  assert.equal((await heard(page))[2],
    'Reiniciado: o balde voltou a 5 de 5 tokens; tráfego desligado, velocidade 1×.');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/** A number as the widget writes a moment's: floored to a tenth, with slack for float noise. */
const tenth = (x) => Math.floor(x * 10 + 1e-6) / 10;

/** The moment on screen as the slider words it, from the diagram's own numbers. */
const momentText = (page, outcome = '') => page.evaluate(([w, o]) => {
  const d = window.bucketlab.diagram;
  const f = (x) => Math.floor(x * 10 + 1e-6) / 10;
  const past = d.traveling ? `, ${(f(d.now) - f(d.viewTime)).toFixed(1)} s before live` : ', live';
  return `${f(d.viewTime).toFixed(1)} s${past}; tokens: ${f(d.tokens).toFixed(1)}.${o ? ` ${o}` : ''}`;
}, [W, outcome]);

test('time: a pause or a step says the moment\'s tokens (and a request just made), the slider reads them, running time says nothing', async () => {
  const page = await openLesson(env, 'en.html?capacity=5&refill-rate=1&tokens=0');
  await listen(page);
  // Lesson time runs and the bucket refills, frame after frame: nothing is said.
  await page.waitForFunction(() => window.bucketlab.diagram.now > 1.3);
  assert.deepEqual(await heard(page), []);

  await page.focus(`${W} .bl-pause`);
  await page.keyboard.press('Enter');
  const paused = await momentText(page);
  assert.match(paused, /^\d+\.\d s, live; tokens: \d\.\d\.$/);
  await hearN(page, 1);
  assert.deepEqual(await heard(page), [`Time paused: ${paused}`], 'the pause says that time stopped, and where');

  await page.focus(`${W} .bl-send`);
  await page.keyboard.press('Enter');
  const outcome = await page.textContent(`${W} .bl-status`);
  assert.match(outcome, /^Admitted: /);
  await page.focus(`${W} .bl-step`);
  await page.keyboard.press('Enter');
  const stepped = await momentText(page, outcome);
  await hearN(page, 2);
  assert.equal((await heard(page))[1], `${outcome} ${stepped}`,
    'the send, then the step: the tokens, and the request whose marker still flies');

  await page.focus(`${W} .bl-step-back`);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  const back = await momentText(page);
  assert.match(back, /, 0\.2 s before live; /);
  await hearN(page, 3);
  assert.equal((await heard(page))[2], back, 'two quick steps back: the moment reached, said once');

  const slider = page.locator(`${W} .bl-scrub`);
  // A short name; how to use it is its description, read after it.
  assert.equal(await page.locator(W).getByRole('slider', { name: 'Timeline', exact: true }).count(), 1);
  assert.match(await page.$eval(`${W} .bl-scrub`, (s) => document.getElementById(s.getAttribute('aria-describedby')).textContent), /^Drag or use the arrow keys to go back in time\. /);
  await slider.focus();
  await page.keyboard.press('Home');
  assert.equal(await slider.getAttribute('aria-valuetext'), await momentText(page));
  assert.match(await slider.getAttribute('aria-valuetext'), /^0\.0 s, \d\.\d s before live; tokens: 0\.0\.$/);
  await page.keyboard.press('End');
  assert.equal(await slider.getAttribute('aria-valuetext'), await momentText(page, outcome));
  // Space does nothing on a slider: the page does not scroll a screen down. (The slider may move a
  // few pixels meanwhile, as the page around a control this close to the top edge settles.)
  const onScreen = () => slider.evaluate((s) => Math.round(s.getBoundingClientRect().top));
  const seen = await onScreen();
  await page.keyboard.press(' ');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const moved = (await onScreen()) - seen;
  assert.ok(Math.abs(moved) < 40, `the slider moved ${moved} px on screen`);

  // "Resume" says that time runs again (its new name on the button is seldom read out).
  await page.focus(`${W} .bl-pause`);
  await page.keyboard.press('Enter');
  await hearN(page, 4);
  assert.equal((await heard(page))[3], 'Time runs again.');
  // A step back from running time stops it: said as a pause is, with the moment shown.
  await page.focus(`${W} .bl-step-back`);
  await page.keyboard.press('Enter');
  const stopped = await momentText(page);
  assert.match(stopped, /, 0\.1 s before live; /);
  await hearN(page, 5);
  assert.equal((await heard(page))[4], `Time paused: ${stopped}`);
  // So does a key on the slider that goes back from running time.
  await page.click(`${W} .bl-to-live`);
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.paused), false, 'running again');
  await hearN(page, 6);
  await slider.focus();
  await page.keyboard.press('ArrowLeft');
  const keyed = await momentText(page);
  await hearN(page, 7);
  assert.equal((await heard(page))[6], `Time paused: ${keyed}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('live region: the end of a 429\'s wait is said once, when the countdown reaches it (after the step that brought it)', async () => {
  const page = await openLesson(env, 'en.html?capacity=1&refill-rate=2');
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await listen(page);
  await page.focus(`${W} .bl-send`);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.waitForFunction((w) => document.querySelector(`${w} .bl-status`).textContent.startsWith('Denied'), W);
  assert.match(await page.textContent(`${W} .bl-countdown`), /^Wait: 0\.5\ss left/);
  await page.focus(`${W} .bl-step`);
  for (let i = 0; i < 4; i++) await page.keyboard.press('Enter');
  assert.match(await page.textContent(`${W} .bl-countdown`), /^Wait: 0\.1\ss left/);
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent(`${W} .bl-countdown`), 'Wait over: it passes now.');
  await page.waitForFunction(() => window.__heard.some((h) => h.text.includes('Wait over')), null, { timeout: 6000 });
  const said = (await heard(page)).filter((text) => text.includes('Wait over'));
  assert.equal(said.length, 1, (await heard(page)).join(' | '));
  assert.match(said[0], /live; tokens: 1\.0\.( Denied: [^.]*\.[^.]*\.)? Wait over: it passes now\.$/, 'the step\'s moment, then the news');
  // The next step says its moment only: the wait ended once.
  const before = (await heard(page)).length;
  await page.keyboard.press('Enter');
  await hearN(page, before + 1);
  assert.doesNotMatch((await heard(page)).at(-1), /Wait over/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('live region: while the automatic traffic runs, the end of its waits is not said (its stream is not narrated)', async () => {
  const page = await openLesson(env, 'en.html?capacity=1&refill-rate=1');
  await page.fill(`${W} .bl-traffic-rate`, '2.5');
  await listen(page);
  await page.selectOption(`${W} .bl-traffic`, 'steady');
  // Traffic at 2.5/s on B = 1, r = 1, in running time: 429s, each wait then over before the next
  // arrival, for five lesson seconds (the live region speaks every 1.5 s of them).
  const start = await page.evaluate(() => window.bucketlab.diagram.now);
  await page.waitForFunction((start) => window.bucketlab.diagram.now > start + 5, start, { timeout: 20000 });
  // A press of the reader's own, heard after whatever was queued before it.
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await page.focus(`${W} .bl-send`);
  await page.keyboard.press('Enter');
  const outcome = (await page.textContent(`${W} .bl-status`)).trim();
  await page.waitForFunction((said) => window.__heard.some((h) => h.text.includes(said)), outcome.slice(0, 20), { timeout: 6000 });
  const texts = await heard(page);
  assert.ok(texts.some((text) => text.startsWith('Denied')), `the traffic's first 429 is said: ${texts.join(' | ')}`);
  assert.ok(texts.every((text) => !text.includes('Wait over')), texts.join(' | '));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('live region: a send right after steps gets the last word; the steps\' moment, with the response before it, is not said after it', async () => {
  const page = await openLesson(env, 'en.html?capacity=5&refill-rate=1');
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await listen(page);
  // Six sends (the sixth refused), three steps, a seventh send: presses within one gap.
  await pressAtOnce(page, [...Array(6).fill('.bl-send'), ...Array(3).fill('.bl-step'), '.bl-send']);
  const status = (await page.textContent(`${W} .bl-status`)).trim();
  assert.match(status, /^Denied: 429 .*exact wait: 0\.7\ss/);
  await hearN(page, 2);
  const last = (await heard(page)).at(-1);
  assert.match(last, /^7 requests \(admitted: 5, denied: 2\)/);
  assert.ok(last.endsWith(status), `the seventh's response is said last: ${last}`);
  assert.equal(last.split('exact wait').length, 2, `one wait, the seventh's: ${last}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('live region: a pause between quick sends is said before them, and the last send gets the last word', async () => {
  const page = await openLesson(env, 'en.html?capacity=2&refill-rate=1');
  await listen(page);
  await pressAtOnce(page, ['.bl-send', '.bl-send', '.bl-pause', '.bl-send']);
  const status = (await page.textContent(`${W} .bl-status`)).trim();
  assert.match(status, /^Denied: 429/);
  await hearN(page, 2);
  const last = (await heard(page)).at(-1);
  assert.match(last, /^Time paused: \d+\.\d s, live; /, 'the reader hears that time stopped');
  assert.ok(last.endsWith(status), `the third send's response is said last: ${last}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('live region: sends right after a reset are said after it, counted from it', async () => {
  const page = await openLesson(env, '?capacity=5');
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await listen(page);
  await page.focus(`${W} .bl-send`);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.focus(`${W} .bl-reset`);
  await page.keyboard.press('Enter');
  await page.focus(`${W} .bl-send`);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await hearN(page, 2);
  assert.deepEqual(await heard(page), [
    'Admitida: restam 4 tokens.',
    'Reiniciado: o balde voltou a 5 de 5 tokens; tráfego desligado, velocidade 1×. '
      + '2 requisições (admitidas: 2, negadas: 0); tokens restantes: 3.',
  ]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('timeline slider: while it has focus and time runs, its spoken value stays put (no sentence each second); keys and blur update it', async () => {
  // A bucket that refills for a long while: the frame loop runs all along.
  const page = await openLesson(env, 'en.html?capacity=1000&refill-rate=1&tokens=0');
  const scrub = page.locator(`${W} .bl-scrub`);
  // The chart moves by its level line's path data, redrawn a few times a second.
  const track = page.locator(`${W} .bl-tl-level`);
  const valueText = () => scrub.getAttribute('aria-valuetext');
  // On screen, so that its frame loop runs (it stops while scrolled away).
  await scrub.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.bucketlab.diagram.isAnimating);
  const movedTrack = async (before) => page.waitForFunction(
    ([sel, was]) => document.querySelector(sel).getAttribute('d') !== was, [`${W} .bl-tl-level`, before]);
  // Not focused: two lesson seconds on, the next move of the track writes the new second.
  let text = await valueText();
  let shift = await track.getAttribute('d');
  await page.evaluate(() => window.bucketlab.diagram.step(2));
  await movedTrack(shift);
  // A move of the track already on its way when the step came (a loaded machine) may still
  // show the second before: the value follows at a next move, without the reader asking.
  await page.waitForFunction(([sel, was]) => document.querySelector(sel).getAttribute('aria-valuetext') !== was, [`${W} .bl-scrub`, text]);
  assert.notEqual(await valueText(), text, 'the value follows time while unfocused');
  // Focused: written once, exact, then left alone while time runs.
  await page.focus(`${W} .bl-scrub`);
  await page.waitForFunction((sel) => /live/.test(document.querySelector(sel).getAttribute('aria-valuetext')), `${W} .bl-scrub`);
  text = await valueText();
  for (let i = 0; i < 3; i++) {
    shift = await track.getAttribute('d');
    await page.evaluate(() => window.bucketlab.diagram.step(2));
    await movedTrack(shift);
    assert.equal(await valueText(), text, `still the value focus wrote, ${2 * (i + 1)} s later`);
  }
  assert.equal(await focused(page, ALL), `${W} .bl-scrub`);
  // A key is the reader asking: the value says the moment it shows.
  await page.keyboard.press('ArrowLeft');
  assert.match(await valueText(), /before live/);
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.traveling), false);
  // Focus gone: the value follows time again.
  await page.focus(`${W} .bl-pause`);
  text = await valueText();
  shift = await track.getAttribute('d');
  await page.evaluate(() => window.bucketlab.diagram.step(2));
  await movedTrack(shift);
  // As above: a move already on its way may show the second before; the value follows by itself.
  await page.waitForFunction(([sel, was]) => document.querySelector(sel).getAttribute('aria-valuetext') !== was, [`${W} .bl-scrub`, text]);
  assert.match(await valueText(), /live/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the accessibility tree, once the page is idle: every heading of the lesson, and the bucket as an image named by its title and described once; the timeline slider holds no second image', async () => {
  const page = await openLesson(env, 'en.html?capacity=5&refill-rate=1');
  // The sections far from the screen are skipped at first (content-visibility), then laid out for
  // good while the page is idle: only then does Chromium put them in the tree.
  await page.waitForFunction(() => document.querySelectorAll('main > section:not(.laid-out)').length === 0);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Accessibility.enable');
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const exposed = nodes.filter((n) => !n.ignored);
  const headings = await page.evaluate(() => [...document.querySelectorAll('h1, h2, h3, h4')].filter((h) => h.checkVisibility()).length);
  assert.ok(headings > 30, `the lesson's headings: ${headings}`);
  assert.equal(exposed.filter((n) => n.role?.value === 'heading').length, headings);
  const named = (pattern) => exposed.filter((n) => pattern.test(n.name?.value ?? ''));
  const buckets = named(/^Token bucket/).filter((n) => n.role?.value === 'image');
  assert.equal(buckets.length, 2, 'the hero and the full diagram');
  for (const bucket of buckets) {
    assert.equal(bucket.name.value, 'Token bucket');
    assert.match(bucket.description?.value ?? '', /^A token bucket: capacity B = 5, refill rate r = 1\/s\./);
  }
  // The slider says what the chart is (its description); nothing inside it says it again.
  const [slider] = named(/^Timeline$/);
  assert.equal(slider.role.value, 'slider');
  assert.match(slider.description?.value ?? '', /^Drag or use the arrow keys/);
  assert.deepEqual(named(/Timeline of the last 20 seconds|^Drag or use/), []);
  await page.context().close();
});

test('the timeline slider keeps its keys: a host page\'s own key handler (mdBook turns the page at an arrow) never hears them', async () => {
  const page = await openLesson(env, 'en.html?capacity=5&refill-rate=1');
  await page.evaluate(() => {
    window.__hostHeard = [];
    document.addEventListener('keydown', (event) => window.__hostHeard.push(event.key));
    window.bucketlab.diagram.pause();
    window.bucketlab.diagram.send();
    window.bucketlab.diagram.step(1);
  });
  await page.locator(`${W} .bl-scrub`).focus();
  for (const key of ['ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageDown', 'PageUp', ' ']) await page.keyboard.press(key);
  assert.deepEqual(await page.evaluate(() => window.__hostHeard), []);
  // A key that is not the slider's still reaches the page.
  await page.keyboard.press('s');
  assert.deepEqual(await page.evaluate(() => window.__hostHeard), ['s']);
  await page.context().close();
});
