// Recording and replaying the diagram (a `#s=` link) as a teacher and a student use it, and what
// the diagram says around time travel: a link copied after an hour on the page opens, a reset
// is replayed as the teacher's timeline shows it, a recording longer than the timeline's 20 s is
// watched from its first moment, a setting changed while a past moment shows takes, the live
// region does not repeat the past, and the countdown tells the present after B or r change.
// Lesson time is driven by the diagram's own clock (pause, step); the live region's pace is
// waited for through what it writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './harness.mjs';
import { openLesson } from './lesson-helpers.mjs';

const env = useBrowser();
const W = '#bucket-widget';
const d = (page, fn, arg) => page.evaluate(fn, arg);

/** The teacher's moment `at + origin` against the student's `at`, every 0.05 s up to `end`. */
async function sameMoments(teacher, student, origin, end) {
  let differ = 0;
  for (let at = 0; at <= end; at += 0.05) {
    await d(teacher, (t) => window.bucketlab.diagram.seek(t), at + origin);
    await d(student, (t) => window.bucketlab.diagram.seek(t), at);
    const [t, s] = [
      await d(teacher, () => window.bucketlab.diagram.tokens),
      await d(student, () => window.bucketlab.diagram.tokens),
    ];
    const counter = (page) => page.textContent(`${W} .bl-counter`);
    if (Math.abs(t - s) > 1e-9 || await counter(teacher) !== await counter(student)) differ++;
  }
  return differ;
}

test('a link copied after an hour on the page opens, counted from a second before its first click', async () => {
  const teacher = await openLesson(env, 'en.html');
  const t1 = await d(teacher, () => {
    const dg = window.bucketlab.diagram;
    dg.pause(); dg.step(3600); dg.step(5);
    return dg.now;
  });
  await teacher.click(`${W} .bl-send`);
  await d(teacher, () => window.bucketlab.diagram.step(0.5));
  await teacher.click(`${W} .bl-send`);
  await d(teacher, () => window.bucketlab.diagram.step(0.5));
  const text = await d(teacher, () => window.bucketlab.diagram.scenario);
  assert.equal(text, '1_5_1_5_2_1s1,1_1.5s1,1');
  const student = await openLesson(env, `en.html#s=${text}`);
  assert.equal(await student.locator('#page-notice').isVisible(), false, 'no refusal');
  const origin = Math.ceil(t1 * 1000 - 1e-6) / 1000 - 1;
  assert.equal(await sameMoments(teacher, student, origin, 2), 0);
  assert.deepEqual([teacher.problems, student.problems], [[], []]);
  await teacher.context().close();
  await student.context().close();
});

test('a reset is in the link: the replay shows what the teacher\'s timeline shows before it', async () => {
  const teacher = await openLesson(env, 'en.html');
  const t0 = await d(teacher, () => { window.bucketlab.diagram.pause(); return window.bucketlab.diagram.now; });
  await teacher.click(`${W} .bl-send`);
  await teacher.fill(`${W} .bl-burst-size`, '3');
  await teacher.click(`${W} .bl-burst`);
  await d(teacher, () => window.bucketlab.diagram.step(0.4));
  await teacher.focus(`${W} .bl-rate`);
  await teacher.keyboard.press('ArrowRight');
  await d(teacher, () => window.bucketlab.diagram.step(0.6));
  await teacher.click(`${W} .bl-reset`);
  await d(teacher, () => window.bucketlab.diagram.step(0.3));
  await teacher.click(`${W} .bl-send`);
  await d(teacher, () => window.bucketlab.diagram.step(0.5));
  const text = await d(teacher, () => window.bucketlab.diagram.scenario);
  assert.match(text, /^1_5_1_5_[\d.]+_[\d.]+s1,1_[\d.]+s1,3_[\d.]+c5,1\.5_[\d.]+z_[\d.]+s1,1$/);
  const student = await openLesson(env, `en.html#s=${text}`);
  assert.equal(await student.locator('#page-notice').isVisible(), false);
  const [end, first] = text.split('_').slice(4, 6).map(parseFloat);
  // The first click's moment in the teacher's lesson time (the next whole millisecond), less its
  // time in the link.
  const origin = Math.max(0, Math.ceil(t0 * 1000 - 1e-6) / 1000 - first);
  assert.equal(await sameMoments(teacher, student, origin, end), 0);
  await teacher.context().close();
  await student.context().close();
});

test('a recording longer than 20 s is watched from its first moment to its end, Home and End included', async () => {
  const page = await openLesson(env, 'en.html#s=1_5_1_5_40_1s1,5_5s1,5_30s1,1');
  const scrub = `${W} .bl-scrub`;
  assert.equal(await d(page, () => window.bucketlab.diagram.viewTime), 0, 'its first moment');
  assert.equal(await page.getAttribute(scrub, 'aria-valuemin'), '0.0');
  assert.equal(await page.textContent(`${W} .bl-counter`), '5.0 / 5');
  // Just before the second burst: the first one's refill.
  await d(page, () => window.bucketlab.diagram.seek(4.9));
  assert.ok(Math.abs(await d(page, () => window.bucketlab.diagram.tokens) - 3.9) < 1e-9);
  assert.equal(await page.getAttribute(`${W} .bl-tl-head`, 'visibility'), 'visible');
  assert.equal(await page.getAttribute(`${W} .bl-tl-head`, 'transform'), 'translate(474.00 0.00)', 'the playhead at the chart\'s "now", a marker\'s half-width in from its right edge');
  assert.notEqual(await page.getAttribute(`${W} .bl-tl-admitted`, 'd'), '', 'the first burst on the chart');
  await d(page, () => window.bucketlab.diagram.seek(5));
  assert.equal(await d(page, () => window.bucketlab.diagram.tokens), 0);
  await page.focus(scrub);
  await page.keyboard.press('Home');
  assert.equal(await d(page, () => window.bucketlab.diagram.viewTime), 0);
  await page.keyboard.press('ArrowRight');
  assert.ok(Math.abs(await d(page, () => window.bucketlab.diagram.viewTime) - 0.1) < 1e-9);
  await page.keyboard.press('End');
  assert.equal(await d(page, () => window.bucketlab.diagram.traveling), false, 'End: its end, live');
  assert.equal(await d(page, () => window.bucketlab.diagram.now), 40);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('in a recording longer than 20 s, the pointer picks moments on the chart as drawn: a press on the playhead stays there, a drag goes back along a chart that holds still', async () => {
  const page = await openLesson(env, 'en.html#s=1_5_1_5_40_1s1,5_5s1,5_30s1,1');
  const dg = () => d(page, () => ({ at: window.bucketlab.diagram.viewTime, past: window.bucketlab.diagram.traveling }));
  await d(page, () => window.bucketlab.diagram.seek(15));
  // The chart ends at 15 s (25 s before the recording's end), the playhead at its right edge.
  await page.locator(`${W} .bl-scrub`).scrollIntoViewIfNeeded();
  // Its edges are then not "−20 s" and "now": only the playhead's label says when, from the end.
  const ticks = () => page.evaluate((w) => [...document.querySelectorAll(`${w} .bl-tl-tick`)]
    .filter((t) => getComputedStyle(t).visibility === 'visible').map((t) => t.textContent), W);
  assert.deepEqual(await ticks(), ['−25.0 s']);
  await d(page, () => window.bucketlab.diagram.seek(30));
  assert.deepEqual(await ticks(), ['−10.0 s', '−20 s', 'now'], 'within the last 20 s: the row\'s labels are back');
  await d(page, () => window.bucketlab.diagram.seek(15));
  const head = await page.locator(`${W} .bl-tl-head line`).boundingBox();
  const chart = await page.locator(`${W} .bl-scrub`).boundingBox();
  const y = chart.y + chart.height / 2;
  await page.mouse.click(head.x + head.width / 2, y);
  assert.deepEqual(await dg(), { at: 15, past: true }, 'a press on the playhead keeps its moment (it went live at 40 s)');
  // Half the chart back from its end is about 9.9 s before 15 s (20 s span over 474 of 480 units).
  const level = () => page.getAttribute(`${W} .bl-tl-level`, 'd');
  const drawn = await level();
  await page.mouse.move(head.x + head.width / 2, y);
  await page.mouse.down();
  const half = chart.x + chart.width / 2;
  for (let i = 1; i <= 6; i++) {
    await page.mouse.move(head.x + head.width / 2 + ((half - head.x - head.width / 2) * i) / 6, y);
    assert.equal(await level(), drawn, `the chart holds still under the pointer (move ${i})`);
  }
  await page.mouse.up();
  const { at, past } = await dg();
  const expected = 15 - ((474 - 240) / 474) * 20;
  assert.ok(past && Math.abs(at - expected) < 0.15, `the moment under the pointer: ${at}, about ${expected}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('while a past moment shows, the first change to B, r or the traffic takes effect', async () => {
  const page = await openLesson(env, 'en.html');
  await d(page, () => window.bucketlab.diagram.pause());
  await page.click(`${W} .bl-send`);
  await d(page, () => window.bucketlab.diagram.step(0.5));
  for (const [control, key, read, expected] of [
    ['.bl-capacity', 'ArrowRight', () => window.bucketlab.diagram.capacity, 6],
    ['.bl-rate', 'ArrowRight', () => window.bucketlab.diagram.refillRate, 1.5],
  ]) {
    await page.click(`${W} .bl-step-back`);
    assert.equal(await d(page, () => window.bucketlab.diagram.traveling), true);
    await page.focus(`${W} ${control}`);
    await page.keyboard.press(key);
    assert.equal(await d(page, () => window.bucketlab.diagram.traveling), false, control);
    assert.equal(await d(page, read), expected, control);
    assert.equal(await page.inputValue(`${W} ${control}`), String(expected));
  }
  await page.click(`${W} .bl-step-back`);
  await page.selectOption(`${W} .bl-traffic`, 'steady');
  assert.equal(await d(page, () => window.bucketlab.diagram.traveling), false);
  assert.equal(await page.inputValue(`${W} .bl-traffic`), 'steady');
  assert.match(await d(page, () => window.bucketlab.diagram.scenario), /t[\d.]+,\d+$/, 'traffic started');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the live region says one press as one decision after stepping back, and no past moment once live', async () => {
  const page = await openLesson(env, 'en.html');
  await page.evaluate((w) => {
    const live = document.querySelector(`${w} .bl-live`);
    window.__heard = [];
    new MutationObserver(() => window.__heard.push(live.textContent.trim()))
      .observe(live, { childList: true, characterData: true, subtree: true });
  }, W);
  const hearN = (n) => page.waitForFunction((count) => window.__heard.filter(Boolean).length >= count, n, { timeout: 6000 });
  const heard = () => page.evaluate(() => window.__heard.filter(Boolean));
  // A second in: the two steps back below never reach the chart's start, where the button is
  // unavailable (however soon after loading the clock was paused).
  await d(page, () => { window.bucketlab.diagram.pause(); window.bucketlab.diagram.step(1); });
  await page.click(`${W} .bl-send`);
  await hearN(1);
  await page.click(`${W} .bl-step-back`);
  await hearN(2);
  assert.match((await heard())[1], /before live/);
  // A second step back (its sentence waits for the region's pace), then a press, at once.
  await page.click(`${W} .bl-step-back`);
  await page.click(`${W} .bl-send`);
  await hearN(3);
  assert.equal((await heard())[2], 'Admitted: 3 tokens left.');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the countdown tells the present after r or B changes, and says that it is the new bucket\'s', async () => {
  const page = await openLesson(env, 'en.html');
  const countdown = () => page.textContent(`${W} .bl-countdown`);
  await d(page, () => window.bucketlab.diagram.pause());
  await page.fill(`${W} .bl-burst-size`, '6');
  await page.click(`${W} .bl-burst`);
  assert.match(await countdown(), /^Wait: 1\.0\ss left/);
  // r = 0: the request can never pass; no "the wait is over" 1.5 s later, and the line says why
  // it differs from the status (the refusal's, with its Retry-After).
  await page.focus(`${W} .bl-rate`);
  await page.keyboard.press('Home');
  assert.equal(await d(page, () => window.bucketlab.diagram.refillRate), 0);
  await d(page, () => window.bucketlab.diagram.step(1.5));
  assert.match(await page.textContent(`${W} .bl-status`), /^Denied: 429 with Retry‑After: 1 /);
  assert.equal(await countdown(), 'With B and r as they are now, the same request would never pass.');
  // r = 0.1, empty, then B = 5, r = 10: 0.2 s later the bucket holds 2 and the request passes.
  await d(page, () => { const dg = window.bucketlab.diagram; dg.configure(5, 0.1); });
  await page.click(`${W} .bl-send`);
  assert.match(await countdown(), /^Wait: 10\.0\ss left/);
  await d(page, () => { const dg = window.bucketlab.diagram; dg.configure(5, 10); dg.step(0.2); });
  assert.equal(await page.textContent(`${W} .bl-counter`), '2.0 / 5');
  assert.equal(await countdown(), 'With B and r as they are now, the same request passes now.');
  // A refusal at r = 0 ("will never pass"), then r = 0.5: the wait is the new bucket's, and says so.
  await page.click(`${W} .bl-reset`);
  await d(page, () => { const dg = window.bucketlab.diagram; dg.pause(); dg.configure(5, 0); });
  await page.fill(`${W} .bl-burst-size`, '6');
  await page.click(`${W} .bl-burst`);
  assert.match(await page.textContent(`${W} .bl-status`), /^Will never pass: the refill rate is 0/);
  assert.equal(await countdown(), '');
  await d(page, () => window.bucketlab.diagram.configure(5, 0.5));
  assert.match(await countdown(), /^With B and r as they are now, the same request passes in 2\.0\ss/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a link that ends on a 429 keeps the room of that response from its first moment: stepping on to the refusal moves nothing under the timeline', async () => {
  const teacher = await openLesson(env, 'en.html');
  await d(teacher, () => { const dg = window.bucketlab.diagram; dg.pause(); for (let i = 0; i < 6; i++) dg.send(); dg.step(0.5); });
  const text = await d(teacher, () => window.bucketlab.diagram.scenario);
  await teacher.context().close();
  const student = await openLesson(env, `en.html#s=${text}`, { viewport: { width: 1280, height: 800 } });
  // From the widget's top, so that the page's own scrolling does not count.
  const place = () => student.$eval(W, (w) => {
    const top = (s) => w.querySelector(s).getBoundingClientRect().top - w.getBoundingClientRect().top;
    return { scrub: top('.bl-scrub'), groups: top('.bl-groups'), head: !w.querySelector('.bl-head').hidden };
  });
  const first = await place();
  assert.equal(first.head, false, 'no response at the first moment');
  const seen = [];
  for (let i = 0; i < 8; i++) {
    await d(student, () => window.bucketlab.diagram.step(0.1));
    seen.push(await place());
  }
  assert.ok(seen.some((p) => p.head), 'on to the refusal: its response shows');
  for (const p of seen) {
    assert.ok(Math.abs(p.scrub - first.scrub) < 1 && Math.abs(p.groups - first.groups) < 1, `held: ${JSON.stringify({ first, p })}`);
  }
  assert.deepEqual(student.problems, []);
  await student.context().close();
});

test('a recording plays on from a past moment with "Resume" at the chosen speed, "Pause" stops it there, and at its end it is live and stopped', async () => {
  const teacher = await openLesson(env, 'en.html');
  await d(teacher, () => { const dg = window.bucketlab.diagram; dg.pause(); for (let i = 0; i < 6; i++) dg.send(); dg.step(1.5); });
  const [text, end] = await d(teacher, () => [window.bucketlab.diagram.scenario, window.bucketlab.diagram.now]);
  await teacher.context().close();
  const student = await openLesson(env, `en.html#s=${text}`);
  const state = () => d(student, () => ({ at: window.bucketlab.diagram.viewTime, past: window.bucketlab.diagram.traveling }));
  const pause = `${W} .bl-pause`;
  assert.equal(await student.textContent(pause), 'Resume');
  await student.click(pause);
  assert.equal(await student.textContent(pause), 'Pause', 'playing');
  await student.waitForFunction(() => window.bucketlab.diagram.viewTime > 0.2);
  assert.equal((await state()).past, true, 'it plays in the past, not live');
  await student.click(pause);
  assert.equal(await student.textContent(pause), 'Resume');
  const stopped = await state();
  await d(student, () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r)))));
  assert.deepEqual(await state(), stopped, 'stopped where it was');
  // The bucket shows that moment as replayed by the core.
  assert.equal(await d(student, () => window.bucketlab.diagram.tokens), await d(student, (t) => {
    const dg = window.bucketlab.diagram;
    const shown = dg.tokens;
    dg.seek(t);
    return shown === dg.tokens ? dg.tokens : NaN;
  }, stopped.at));
  // A faster speed keeps the recording on screen; played to its end, it is live there, stopped.
  await student.selectOption(`${W} .bl-speed`, '4');
  assert.equal((await state()).past, true, 'a speed change stays in the recording');
  await student.click(pause);
  await student.waitForFunction(() => !window.bucketlab.diagram.traveling);
  // At the recording's end, as the link carries it: to the millisecond (the teacher's clock read
  // 0.132 + 1.5 = 1.6320000000000001 s where the link says 1.632).
  const [paused, now] = await d(student, () => [window.bucketlab.diagram.paused, window.bucketlab.diagram.now]);
  assert.equal(paused, true);
  assert.ok(Math.abs(now - end) < 1e-9, `${now} at the end ${end}`);
  assert.equal(await student.textContent(pause), 'Resume');
  assert.deepEqual(student.problems, []);
  await student.context().close();
});

test('a hand-written link (.5 for 0.5) keeps its recording in the address while it is watched, as the core writes it', async () => {
  const page = await openLesson(env, 'en.html#s=1_5_1_5_2_.5s1,1');
  await page.waitForFunction(() => window.bucketlab.diagram?.traveling);
  // Anything that writes the address (here a tab) keeps the recording in it.
  await page.click('#tab-usage');
  await page.waitForFunction(() => location.hash.includes('tab=usage'));
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /&s=1_5_1_5_2_0\.5s1,1(&|$)/, hash);
  // That address opens the same recording.
  const again = await openLesson(env, `en.html${hash}`);
  await again.waitForFunction(() => window.bucketlab.diagram?.traveling);
  assert.equal(await again.evaluate(() => window.bucketlab.diagram.scenario), await page.evaluate(() => window.bucketlab.diagram.scenario));
  assert.deepEqual([...page.problems, ...again.problems], []);
  await page.context().close();
  await again.context().close();
});

test('a recording whose last request cost what the field refuses (a script\'s send(1.5) or send(0)) leaves the cost field at its own value', async () => {
  for (const cost of ['1.5', '0']) {
    const page = await openLesson(env, `en.html#s=1_5_1_5_2_0.5s${cost},1`);
    await page.waitForFunction(() => window.bucketlab.diagram?.traveling);
    assert.equal(await page.inputValue(`${W} .bl-cost`), '1', cost);
    assert.equal(await d(page, () => window.bucketlab.diagram.cost), 1, cost);
    assert.equal(await page.textContent(`${W} .bl-input-error`), '', cost);
    // The student's first click is a request of 1 token.
    await page.click(`${W} .bl-send`);
    assert.equal(await page.getAttribute(`${W} .bl-status`, 'data-outcome'), 'allowed', cost);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('beside a recording, a b given twice is named twice (the first is not the recording\'s either), and c is checked against the recording\'s B', async () => {
  const page = await openLesson(env, 'en.html#b=2&b=3&s=1_10_1_10_2_0.5s1,1');
  await page.waitForFunction(() => window.bucketlab.diagram?.traveling);
  assert.equal(await d(page, () => window.bucketlab.diagram.capacity), 10);
  assert.equal(await page.textContent('#page-notice'),
    'Some values in the link were ignored: b = “3”: given twice; the first one counts (expected: a number greater than 0); b = “2”: the recording in s sets B = 10.');
  // A c given twice: the first is the cost field's, though 8 would not fit the page's own B = 5.
  const cost = await openLesson(env, 'en.html#c=8&c=9&s=1_10_1_10_2_0.5s1,1');
  await cost.waitForFunction(() => window.bucketlab.diagram?.traveling);
  assert.equal(await cost.textContent('#page-notice'),
    'A value in the link was ignored: c = “9”: given twice; the first one counts (expected: a whole number from 1 to B).');
  assert.equal(await cost.inputValue(`${W} .bl-cost`), '8');
  assert.equal(await d(cost, () => window.bucketlab.diagram.cost), 8);
  assert.deepEqual([...page.problems, ...cost.problems], []);
  await page.context().close();
  await cost.context().close();
});

test('a link\'s own b and r beside a recording are named in the notice, which the recording overrides; its c is the cost field\'s', async () => {
  const page = await openLesson(env, 'en.html#s=1_5_1_5_2_0.5s1,1&b=20&r=2&c=3');
  await page.waitForFunction(() => window.bucketlab.diagram?.traveling);
  assert.deepEqual(await d(page, () => [window.bucketlab.diagram.capacity, window.bucketlab.diagram.refillRate]), [5, 1]);
  assert.equal(await page.textContent('#page-notice'),
    'Some values in the link were ignored: b = “20”: the recording in s sets B = 5; r = “2”: the recording in s sets r = 1.');
  assert.equal(await page.inputValue(`${W} .bl-cost`), '3');
  // The same recording with the B and r it sets, as the page's own links carry them: no notice.
  const own = await openLesson(env, 'en.html#b=5&r=1&c=1&s=1_5_1_5_2_0.5s1,1');
  await own.waitForFunction(() => window.bucketlab.diagram?.traveling);
  assert.equal(await own.locator('#page-notice').isVisible(), false);
  assert.deepEqual([...page.problems, ...own.problems], []);
  await page.context().close();
  await own.context().close();
});

test('a recording longer than an hour is refused for a link with that reason, not with the actions and characters', async () => {
  const page = await openLesson(env, 'en.html');
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.pause();
    d.send();
    d.step(1800);
    d.step(1801);
    // Actions over an hour apart (an hour of nothing after the last one would be left out).
    d.send();
  });
  await page.click('.scenario-copy');
  const feedback = page.locator('.permalink .copy-feedback');
  await feedback.filter({ hasText: /\S/ }).waitFor();
  // From a second before the first send (made at whatever lesson time the page had reached) to the last.
  assert.match(await feedback.textContent(),
    /^Too long for a link: this recording lasts 3,60[12](\.\d+)? s, and a replay link holds at most an hour \(3,600 s\)\. Reset the diagram to start a shorter one\.$/);
  // Reset, and the new recording fits again.
  await page.click('#bucket-widget .bl-reset');
  assert.match(await page.evaluate(() => window.bucketlab.diagram.scenario), /^1_/);
  await page.context().close();
});

test('a recording too long in characters is refused for a link; after the reset it asks for, the link holds what came after', async () => {
  const page = await openLesson(env, 'en.html');
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.pause();
    // 190 requests at times of three decimals: over 2,000 characters, under 200 actions.
    for (let i = 0; i < 190; i++) {
      d.step(0.123);
      d.send();
    }
  });
  await page.click('.scenario-copy');
  const feedback = page.locator('.permalink .copy-feedback');
  await feedback.filter({ hasText: /\S/ }).waitFor();
  assert.match(await feedback.textContent(), /^Too long for a link: .*Reset the diagram/);
  await page.click('#bucket-widget .bl-reset');
  const link = await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    for (let i = 0; i < 3; i++) {
      d.step(0.5);
      d.send();
    }
    return d.scenario;
  });
  assert.equal(link.split('_').length, 5 + 3, link);
  await page.context().close();
});
