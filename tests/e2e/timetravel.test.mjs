// The learner's first minute with the default bucket, and time travel: a refusal at a human
// click pace, scrubbing back to an exact earlier counter, a scenario link that replays
// identically, and a hostile scenario refused with a notice. Time is driven by the diagram's own
// clock (pause, then steps), never by waiting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser } from './harness.mjs';
import { loadEveryPart, openLesson, replayShown } from './lesson-helpers.mjs';

const env = useBrowser();
const W = '#bucket-widget';

/** What the widget shows: counter, status line, formula. */
const shown = (page) => page.evaluate((w) => ['.bl-counter', '.bl-status', '.bl-formula']
  .map((s) => document.querySelector(`${w} ${s}`).textContent), W);

/** `t` rounded up to a whole millisecond, as the core times an action (src/limiter/session.rs). */
const msCeil = (t) => Math.ceil(t * 1000 - 1e-6) / 1000 + 0;

/** The counter's text for `tokens` of `capacity`, as the widget writes it (floored to 0.1). */
const counterText = (tokens, capacity, lang) => {
  const text = `${(Math.floor(tokens * 10 + 1e-6) / 10).toFixed(1)} / ${capacity}`;
  return lang === 'en' ? text : text.replace('.', ',');
};

const SIZES = [{ width: 1280, height: 800 }, { width: 375, height: 812 }];

for (const [path, lang] of [['', 'pt-BR'], ['en.html', 'en']]) {
  // The hero on the first screen (at both sizes, without scrolling) and the full widget below.
  for (const [where, handle, viewport] of [
    ['#hero-widget', 'hero', SIZES[0]], ['#hero-widget', 'hero', SIZES[1]], [W, 'diagram', SIZES[0]],
  ]) {
    test(`${lang}, ${where} at ${viewport.width} px: clicking every 300 ms with the default bucket meets a 429 within 12 clicks`, async () => {
      const page = await openLesson(env, path, { viewport });
      const config = await page.evaluate((h) => [window.bucketlab[h].capacity, window.bucketlab[h].refillRate], handle);
      assert.deepEqual(config, [5, 1], 'the default bucket: B = 5, r = 1');
      await page.evaluate((h) => window.bucketlab[h].pause(), handle);
      // What the core says should happen at that pace, with the page's default bucket.
      const expected = await page.evaluate(([b, r]) => {
        const bucket = new window.bucketlab.TokenBucket({ capacity: b, refillRate: r });
        for (let click = 1; click <= 40; click++) {
          if (!bucket.tryAcquireAt(1, (click - 1) * 0.3).allowed) return click;
        }
        return null;
      }, config);
      let first = null;
      for (let click = 1; click <= 12 && first === null; click++) {
        // A click dispatched from the page, then 0.3 s of lesson time.
        await page.evaluate((w) => document.querySelector(`${w} .bl-send`).click(), where);
        if (await page.getAttribute(`${where} .bl-status`, 'data-outcome') === 'denied') first = click;
        await page.evaluate((h) => window.bucketlab[h].step(0.3), handle);
      }
      assert.ok(first !== null && first <= 12, `a 429 within 12 clicks (got ${first})`);
      assert.equal(first, expected, 'at the click the core predicts');
      assert.match(await page.textContent(`${where} .bl-status`), /429/);
      assert.equal(await page.evaluate(() => scrollY), 0, 'nothing scrolled the page');
      assert.deepEqual(page.problems, []);
      await page.context().close();
    });
  }
}

test('a double-click on "Back to live" goes back to live once: the second click lands on no other button (Reset came before it)', async () => {
  for (const path of ['en.html', 'embed.html?lang=en']) {
    const page = await openPage(env.browser);
    await page.goto(new URL(path, env.server.url).href);
    await page.waitForFunction(() => window.bucketlab?.diagram || document.querySelector('bucket-lab')?.diagram);
    const root = path.startsWith('embed') ? 'bucket-lab' : W;
    await page.evaluate((path) => {
      const d = path.startsWith('embed') ? document.querySelector('bucket-lab').diagram : window.bucketlab.diagram;
      d.pause();
      d.send();
      d.step(0.5);
      d.send();
    }, path);
    const scenario = () => page.evaluate((path) => (path.startsWith('embed') ? document.querySelector('bucket-lab').diagram : window.bucketlab.diagram).scenario, path);
    const before = await scenario();
    await page.locator(`${root} .bl-step-back`).click();
    await page.locator(`${root} .bl-to-live`).dblclick();
    await page.waitForFunction((path) => !(path.startsWith('embed') ? document.querySelector('bucket-lab').diagram : window.bucketlab.diagram).traveling, path);
    assert.equal(await scenario(), before, `${path}: nothing reset`);
    assert.match(await page.locator(`${root} .bl-status`).textContent(), /^Admitted/, path);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('scrubbing back shows the exact earlier counter, panel and formula; back to live resumes', async () => {
  const page = await openLesson(env, 'en.html');
  // Lesson time ran from the mount until the pause: t0. Clicks at t0 + 0, 0, 0.3, 0.3, 0.3, 0.8
  // (paused, so "now" only moves by steps).
  const t0 = await page.evaluate(() => { window.bucketlab.diagram.pause(); return window.bucketlab.diagram.now; });
  const script = [['send'], ['send'], ['step', 0.3], ['send'], ['send'], ['send'], ['step', 0.5], ['send'], ['step', 0.4]];
  // Each click happens at the next whole millisecond, to which it moves the stopped clock. The
  // times the test replays are the ones the diagram reports (summed in the core's order: the same
  // sum in another order may differ in its last bit), each checked against the expected one.
  const times = [];
  const seen = [];
  let clock = t0;
  for (const [what, seconds] of script) {
    if (what === 'send') await page.click(`${W} .bl-send`);
    else await page.evaluate((s) => window.bucketlab.diagram.step(s), seconds);
    const at = await page.evaluate(() => window.bucketlab.diagram.now);
    seen.push({ at, shown: await shown(page) });
    if (what === 'send') {
      clock = Math.max(clock, msCeil(clock));
      assert.ok(Math.abs(at - clock) < 1e-9, `a click at ${at} s, expected ${clock} s`);
      times.push(at);
    } else {
      clock += seconds;
    }
  }
  const now = await page.evaluate(() => window.bucketlab.diagram.now);
  // The same clicks through a TokenBucket in the test: tokens at any moment.
  const tokensAt = (t) => page.evaluate(([at, times]) => {
    const bucket = new window.bucketlab.TokenBucket({ capacity: 5, refillRate: 1 });
    for (const time of times) if (time <= at + 1e-9) bucket.tryAcquireAt(1, time);
    return bucket.tokensAt(at);
  }, [t, times]);

  // Step back 0.1 s, five times: each moment's counter from the core.
  for (let k = 1; k <= 5; k++) {
    await page.click(`${W} .bl-step-back`);
    const at = await page.evaluate(() => window.bucketlab.diagram.viewTime);
    assert.ok(Math.abs(at - (now - 0.1 * k)) < 1e-9, `moment ${k}`);
    // The core's replay refills in its own steps: the same to 1e-12, and the counter exactly.
    const tokens = await tokensAt(at);
    const replayed = await page.evaluate(() => window.bucketlab.diagram.tokens);
    assert.ok(Math.abs(replayed - tokens) < 1e-12, `moment ${k}: ${replayed} against ${tokens}`);
    assert.equal(await page.textContent(`${W} .bl-counter`), counterText(tokens, 5, 'en'));
  }
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.traveling), true);
  assert.equal(await page.isVisible(`${W} .bl-to-live`), true, '"Back to live" shows');

  // The slider: a keyboard-operable role="slider" with a spoken value.
  const slider = page.locator(`${W} [role=slider]`);
  await slider.focus();
  await page.keyboard.press('Home');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.viewTime), 0, 'Home: the start (lesson time 0)');
  assert.equal(await page.textContent(`${W} .bl-counter`), '5.0 / 5');
  assert.match(await slider.getAttribute('aria-valuetext'), /^0\.0 s, \d\.\d s before live; tokens: 5\.0\.$/);
  // The moment of the fifth click (t0 + 0.3): the panel and formula as they were then.
  await page.evaluate((t) => window.bucketlab.diagram.seek(t), seen[5].at);
  assert.ok(Math.abs(await page.evaluate(() => window.bucketlab.diagram.tokens) - await tokensAt(seen[5].at)) < 1e-12);
  assert.deepEqual(await shown(page), seen[5].shown, 'counter, status and formula then');
  await page.keyboard.press('ArrowRight');
  assert.ok(Math.abs(await page.evaluate(() => window.bucketlab.diagram.viewTime) - (seen[5].at + 0.1)) < 1e-9, 'ArrowRight: 0.1 s later');
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.viewTime), now);
  assert.match(await slider.getAttribute('aria-valuetext'), /^\d\.\d s, live; tokens: \d\.\d\.( .+)?$/);
  // Now itself is the live diagram: End went back to live.
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.traveling), false, 'End is live');
  assert.equal(await page.isVisible(`${W} .bl-to-live`), false);
  // So does a step forward that reaches now.
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.traveling), true);
  await page.click(`${W} .bl-step`);
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.traveling), false, 'a step up to now is live');

  // A pointer on the chart picks the moment under it: 10 s left of the right edge is now − 10 s,
  // before the start, so the start.
  const box = await slider.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.viewTime), 0);

  // Back to live: the live counter, lesson time running again only if it ran before.
  await page.click(`${W} .bl-to-live`);
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.traveling), false);
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.paused), true, 'it was paused');
  assert.deepEqual(await shown(page), seen.at(-1).shown);
  assert.equal(await page.isVisible(`${W} .bl-to-live`), false);

  await page.evaluate(() => window.bucketlab.diagram.resume());
  await page.click(`${W} .bl-step-back`);
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.paused), true, 'going back stops time');
  await page.click(`${W} .bl-to-live`);
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.paused), false, 'back to live resumes');
  // A request sent while a past moment shows is sent live, and lesson time runs again as before.
  await page.click(`${W} .bl-step-back`);
  await page.click(`${W} .bl-send`);
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.traveling, window.bucketlab.diagram.paused]), [false, false], 'send resumes');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('"Step back" at the chart\'s start is shown unavailable and keeps the focus; a step forward makes it available again', async () => {
  const page = await openLesson(env, 'en.html');
  const now = await page.evaluate(() => { const d = window.bucketlab.diagram; d.pause(); d.step(0.35); return d.now; });
  const presses = Math.ceil(now / 0.1 - 1e-9);
  const back = page.locator(`${W} .bl-step-back`);
  const state = () => page.evaluate((w) => {
    const button = document.querySelector(`${w} .bl-step-back`);
    return { unavailable: button.getAttribute('aria-disabled'), focused: document.activeElement === button, at: window.bucketlab.diagram.viewTime };
  }, W);
  await back.focus();
  for (let i = 1; i < presses; i += 1) await page.keyboard.press('Enter');
  assert.equal((await state()).unavailable, null, `${now - (presses - 1) * 0.1} s after the start it can go further`);
  await page.keyboard.press('Enter');
  assert.deepEqual(await state(), { unavailable: 'true', focused: true, at: 0 }, 'at the start: unavailable, focus kept');
  // Pressed there, it stays there.
  await page.keyboard.press('Enter');
  assert.deepEqual(await state(), { unavailable: 'true', focused: true, at: 0 });
  await page.click(`${W} .bl-step`);
  assert.equal((await state()).unavailable, null);
  // Three steps forward and three back land a hair off the start (0.1 + 0.1 + 0.1 − 0.1 …): still the start.
  await page.click(`${W} .bl-step`);
  await page.click(`${W} .bl-step`);
  for (let i = 0; i < 3; i += 1) await back.click();
  assert.equal((await state()).unavailable, 'true', 'three forward, three back');
  await page.click(`${W} .bl-step`);
  // At the start the button looks as unavailable as a disabled one.
  await back.focus();
  await page.keyboard.press('Enter');
  assert.equal(await back.evaluate((b) => getComputedStyle(b).opacity), '0.5');
  await page.click(`${W} .bl-to-live`);
  assert.equal((await state()).unavailable, null, 'live');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const [path, viewport, comma] of [['en.html', SIZES[0], false], ['', SIZES[1], true]]) {
  test(`${path || 'index.html'} at ${viewport.width} px: a past moment is written under the playhead, how long before now, whole on the chart, the row's label it comes near giving way`, async () => {
    const page = await openLesson(env, path, { viewport });
    await page.evaluate(() => { const d = window.bucketlab.diagram; d.pause(); d.send(); d.step(20.5); });
    await page.locator(`${W} .bl-scrub`).scrollIntoViewIfNeeded();
    const number = (text) => (comma ? text.replace('.', ',') : text);
    // The label's text, where it and the row's labels are on screen, and the playhead line's x.
    const mark = () => page.evaluate((w) => {
      const q = (s) => document.querySelector(`${w} ${s}`);
      const box = (s) => { const r = q(s).getBoundingClientRect(); return { left: r.left, right: r.right, mid: (r.left + r.right) / 2 }; };
      const shown = (s) => getComputedStyle(q(s)).visibility === 'visible';
      return { text: q('.bl-tl-moment').textContent, head: q('.bl-tl-head').getAttribute('visibility'), line: box('.bl-tl-head line').mid,
        label: box('.bl-tl-moment'), chart: box('.bl-timeline'), start: shown('.bl-tl-start') && box('.bl-tl-start'), end: shown('.bl-tl-end') && box('.bl-tl-end') };
    }, W);
    const apart = (a, b) => a.right <= b.left || b.right <= a.left;
    const seek = (before) => page.evaluate((s) => { const d = window.bucketlab.diagram; d.seek(d.now - s); }, before);

    // Mid-chart: under the line, both row labels shown and clear of it.
    await seek(7.5);
    let m = await mark();
    assert.equal(m.head, 'visible');
    assert.equal(m.text, `−${number('7.5')} s`);
    assert.ok(Math.abs(m.label.mid - m.line) < 1, `centred under the line: ${m.label.mid} against ${m.line}`);
    assert.ok(m.start && m.end && apart(m.label, m.start) && apart(m.label, m.end), 'both row labels shown, clear of it');
    // Near now: whole on the chart; "now" gives way, "−20 s" stays.
    await seek(0.3);
    m = await mark();
    assert.equal(m.text, `−${number('0.3')} s`);
    assert.ok(m.label.right <= m.chart.right + 0.5, `whole: its right ${m.label.right}, the chart's ${m.chart.right}`);
    assert.equal(m.end, false, '"now" gives way');
    assert.ok(m.start, '"−20 s" stays');
    // At the chart's start (Home): "−20 s" gives way, "now" stays.
    await page.focus(`${W} .bl-scrub`);
    await page.keyboard.press('Home');
    m = await mark();
    assert.equal(m.text, `−${number('20.0')} s`);
    assert.ok(m.label.left >= m.chart.left - 0.5, `whole: its left ${m.label.left}, the chart's ${m.chart.left}`);
    assert.equal(m.start, false, '"−20 s" gives way');
    assert.ok(m.end && apart(m.label, m.end), '"now" stays, clear of it');
    // Live again: no playhead, both row labels back.
    await page.keyboard.press('End');
    m = await mark();
    assert.equal(m.head, 'hidden');
    assert.ok(m.start && m.end, 'both row labels back');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('a scenario link replays identically, step by step', async () => {
  const teacher = await openLesson(env, 'en.html');
  // Two seconds in (as after a while on the page): the link counts from a second before the
  // first action, at the next whole millisecond.
  const t0 = await teacher.evaluate(() => { window.bucketlab.diagram.pause(); window.bucketlab.diagram.step(2); return window.bucketlab.diagram.now; });
  const origin = msCeil(t0) - 1;
  // A burst, a wait, a new B and r from the sliders, more clicks.
  await teacher.fill(`${W} .bl-burst-size`, '7');
  await teacher.click(`${W} .bl-burst`);
  await teacher.evaluate(() => window.bucketlab.diagram.step(0.7));
  await teacher.evaluate(() => window.bucketlab.diagram.configure(8, 2.5));
  await teacher.click(`${W} .bl-send`);
  await teacher.evaluate(() => window.bucketlab.diagram.step(0.45));
  await teacher.click(`${W} .bl-send`);
  await teacher.click(`${W} .bl-send`);
  await teacher.evaluate(() => window.bucketlab.diagram.step(0.35));
  const text = await teacher.evaluate(() => window.bucketlab.diagram.scenario);
  // Times in milliseconds from a second before the burst.
  assert.equal(text, '1_5_1_5_2.5_1s1,7_1.7C8,2.5_1.7s1,1_2.15s1,1_2.15s1,1');

  const learner = await openLesson(env, `en.html#s=${text}`);
  assert.equal(await learner.locator('#page-notice').isVisible(), false);
  assert.equal(await learner.evaluate(() => window.bucketlab.diagram.traveling), true);
  assert.equal(await learner.evaluate(() => window.bucketlab.diagram.viewTime), 0, 'it opens at the start');
  // Up to the burst (t0 may be several tenths), then through the rest.
  while (await learner.evaluate((t) => window.bucketlab.diagram.viewTime < t - 0.05, 1)) {
    await learner.click(`${W} .bl-step`);
  }
  assert.ok(learner.url().endsWith(`s=${text}`), 'the link stays while stepping through');
  // Step through it with "Step 0.1 s"; the teacher's diagram scrubbed to each moment shows the same.
  for (let k = 0; k < 16; k++) {
    const at = await learner.evaluate(() => window.bucketlab.diagram.viewTime);
    await teacher.evaluate((t) => window.bucketlab.diagram.seek(t), at + origin);
    assert.deepEqual(await shown(learner), await shown(teacher), `at t = ${at}`);
    // The same, but for float noise: the link's times count from another origin.
    const tokens = [await learner.evaluate(() => window.bucketlab.diagram.tokens),
      await teacher.evaluate(() => window.bucketlab.diagram.tokens)];
    assert.ok(Math.abs(tokens[0] - tokens[1]) < 1e-9, `${tokens}`);
    await learner.click(`${W} .bl-step`);
  }
  assert.equal(await learner.evaluate(() => window.bucketlab.diagram.capacity), 8, 'the scenario\'s B');
  assert.deepEqual(learner.problems, []);
  await teacher.context().close();
  await learner.context().close();
});

test('a hostile scenario link is refused with a notice and the diagram stays live', async () => {
  const hostile = [
    ['<img src=x onerror=alert(1)>', /the character “<” is not allowed/],
    [`1_5_1_5_1${'_0z'.repeat(700)}`, /it is 2,109 characters long, at most 2,000/],
    ['1_-5_1_5_1', /capacity B: -5 is not allowed; use a number greater than 0/],
    ['1_5_1_5_2_0.5s1,1e9', /burst size: 1000000000 is not allowed; use a whole number from 1 to 100/],
    ['1_5_1_5_2_1s1,1_0.5s1,1', /its time must be from the previous action's/],
    ['%E0%A4%A', /expected: a scenario link/],
  ];
  for (const [value, reason] of hostile) {
    const page = await openLesson(env, `en.html#s=${encodeURIComponent(value).replace(/%25/g, '%')}`);
    page.on('dialog', () => assert.fail('no script runs from the link'));
    // Worded by a module loaded only then: the notice comes a moment later.
    const notice = page.locator('#page-notice');
    await page.waitForSelector('#page-notice:not([hidden])');
    assert.equal(await notice.isVisible(), true, value);
    const said = await notice.textContent();
    assert.match(said, /^A value in the link was ignored: s = “/, said);
    assert.match(said, reason, said);
    assert.equal(await page.locator('#page-notice *').count(), 0, 'text, never markup');
    assert.equal(await page.evaluate(() => window.bucketlab.diagram.traveling), false);
    assert.equal(await page.evaluate(() => window.bucketlab.diagram.capacity), 5);
    assert.equal(await page.locator('img[src=x]').count(), 0);
    await page.context().close();
  }
});

test('on a phone, a refused scenario link\'s notice is brought into view', async () => {
  const page = await openLesson(env, 'index.html#s=garbage', { viewport: SIZES[1] });
  await page.waitForSelector('#page-notice:not([hidden])');
  // The notice sits under the hero; the page scrolls to it (once its reason is worded).
  await page.waitForFunction(() => {
    const box = document.getElementById('page-notice').getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight;
  });
  assert.match(await page.textContent('#page-notice'), /s = “garbage”/);
  // Focused, so a screen reader reads it (a status filled during the load may go unsaid).
  assert.equal(await page.evaluate(() => document.activeElement.id), 'page-notice');
  assert.deepEqual(page.problems.filter((p) => !p.startsWith('warning: bucketlab: s = ')), []);
  await page.context().close();
});

test('pt-BR: a bad scenario link is refused in Portuguese only, with the reason in Portuguese; the core\'s English one goes to the console', async () => {
  const page = await openLesson(env, '#s=garbage');
  // Worded by a module loaded only then: the notice comes a moment later.
  const said = await page.locator('#page-notice:not([hidden])').textContent();
  assert.equal(said, 'Um valor do link foi ignorado: s = “garbage”: ele deve começar com a versão 1_ (esperado: um link de cenário copiado desta página: versão 1, no máximo 200 ações, 2.000 caracteres e 3.600 s).');
  assert.deepEqual(page.problems, ['warning: bucketlab: s = "garbage": scenario "garbage": it must start with the version 1_']);
  await page.context().close();
});

// Each kind of refused scenario as [link, pt-BR reason, English reason]: worded from the Error's
// `problem` (kind, action, piece, values, and a refused number's field and rule), the same way in
// both languages, a number named as the lesson names it (B, r, c, the scenario's end…) with what
// is allowed; never the core's field names.
const REFUSED_SCENARIOS = [
  ['1_5_1', 'ele deve começar com 1_B_r_tokens_end', 'it must start with 1_B_r_tokens_end'],
  ['1_5_1_5_2_0.5s1,1~', 'o caractere “~” não é permitido; use só letras, dígitos e . _ , - +', 'the character “~” is not allowed; use letters, digits and . _ , - + only'],
  [`1_5_1_5_1${'_0z'.repeat(700)}`, 'ele tem 2.109 caracteres, no máximo 2.000', 'it is 2,109 characters long, at most 2,000'],
  [`1_5_1_5_1${'_0z'.repeat(201)}`, 'ele tem 201 ações, no máximo 200', 'it has 201 actions, at most 200'],
  ['1_5_NaN_5_3_1s1,1', 'taxa r (tokens/s): “NaN” não é um número; use um número maior ou igual a 0', 'rate r (tokens/s): “NaN” is not a number; use a number of at least 0'],
  ['1_0_1_5_3_1s1,1', 'capacidade B: 0 não é permitido; use um número maior que 0', 'capacity B: 0 is not allowed; use a number greater than 0'],
  ['1_5_1_9_3_1s1,1', 'tokens iniciais: 9 não é permitido; use um número de 0 a 5', 'starting tokens: 9 is not allowed; use a number from 0 to 5'],
  ['1_5_1_5_4000_0s1,1', 'o fim do cenário (s): 4000 não é permitido; use um número de 0 a 3600', 'the scenario\'s end (s): 4000 is not allowed; use a number from 0 to 3600'],
  // A link's time as a form takes it back, as the bounds are written: 1.234 is 1,2340 in Portuguese.
  ['1_5_1_5_3_1.234s1,1_0.5s1,1', 'na ação 2 “0.5s1,1”, o tempo dela deve ficar entre o da ação anterior (1,2340) e o fim (3)', 'in action 2 “0.5s1,1”, its time must be from the previous action\'s (1.234) to the end (3)'],
  ['1_5_1_5_2.5_0.5s1,1_3s1,1', 'na ação 2 “3s1,1”, o tempo dela deve ficar entre o da ação anterior (0,5) e o fim (2,5)', 'in action 2 “3s1,1”, its time must be from the previous action\'s (0.5) to the end (2.5)'],
  ['1_5_1_5_1_2s1,1', 'na ação 1 “2s1,1”, o tempo dela deve ficar entre o início (0) e o fim (1)', 'in action 1 “2s1,1”, its time must be from the start (0) to the end (1)'],
  ['1_5_1_5_2_1.5', 'na ação 1 “1.5”, falta a letra da ação; use s, c, C, z, t, p ou x depois do tempo; o link pode ter sido cortado: copie-o de novo, inteiro', 'in action 1 “1.5”, no action letter; use s, c, C, z, t, p or x after the time; the link may have been cut short: copy it again, whole'],
  ['1_5_1_5_2_0.5q1', 'na ação 1 “0.5q1”, letra de ação desconhecida “q”; use s, c, C, z, t, p ou x', 'in action 1 “0.5q1”, unknown action letter “q”; use s, c, C, z, t, p or x'],
  ['1_5_1_5_2_0.5z1', 'na ação 1 “0.5z1”, a ação “z” não leva números', 'in action 1 “0.5z1”, action “z” takes no numbers'],
  ['1_5_1_5_2_0.5s1', 'na ação 1 “0.5s1”, a ação “s” leva 2 números separados por vírgulas; o link pode ter sido cortado: copie-o de novo, inteiro', 'in action 1 “0.5s1”, action “s” takes 2 numbers separated by commas; the link may have been cut short: copy it again, whole'],
  ['1_5_1_5_2.25_0.43s1,', 'na ação 1 “0.43s1,”, tamanho da rajada: o campo está vazio; use um número inteiro de 1 a 100; o link pode ter sido cortado: copie-o de novo, inteiro', 'in action 1 “0.43s1,”, burst size: the field is empty; use a whole number from 1 to 100; the link may have been cut short: copy it again, whole'],
  ['1_5_1_5_2_0.5s0.5,1e400', 'na ação 1 “0.5s0.5,1e400”, tamanho da rajada: “1e400” é grande demais; use um número inteiro de 1 a 100', 'in action 1 “0.5s0.5,1e400”, burst size: “1e400” is too large; use a whole number from 1 to 100'],
  ['1_5_1_5_2_9999s1,1', 'na ação 1 “9999s1,1”, o tempo da ação (s): 9999 não é permitido; use um número de 0 a 3600', 'in action 1 “9999s1,1”, the action\'s time (s): 9999 is not allowed; use a number from 0 to 3600'],
];

for (const [path, lang, column, lead, expected] of [
  ['', 'pt-BR', 1, 'Um valor do link foi ignorado', 'esperado: um link de cenário'],
  ['en.html', 'en', 2, 'A value in the link was ignored', 'expected: a scenario link'],
]) {
  test(`${lang}: each kind of refused scenario is worded from the core's reason as data, in the lesson's names, with what is allowed`, async () => {
    for (const row of REFUSED_SCENARIOS) {
      const [value, reason] = [row[0], row[column]];
      const bad = await openLesson(env, `${path}#s=${value}`);
      const said = await bad.locator('#page-notice:not([hidden])').textContent();
      // Quoted as every message quotes a value: 40 characters, then "…".
      const quoted = value.length > 40 ? `${value.slice(0, 40)}…` : value;
      assert.ok(said.startsWith(`${lead}: s = “${quoted}”: ${reason} (${expected}`), `${quoted}: ${said}`);
      assert.doesNotMatch(said, /refill_rate|burst_size|\bnow\b|capacity =|fora do permitido|outside what/);
      // The core's exact English reason goes to the console only.
      assert.equal(bad.problems.length, 1, `${bad.problems}`);
      assert.match(bad.problems[0], /^warning: bucketlab: s = ".*": scenario/);
      await bad.context().close();
    }
  });
}

for (const [width, height] of [[375, 812], [1280, 720], [1280, 1100]]) {
  test(`a replay link at ${width} × ${height} px shows the bucket and focuses a control that is in view with it`, async () => {
    const page = await openLesson(env, 'en.html#s=1_5_1_5_4_0.5s1,3_1s1,1', { viewport: { width, height } });
    await page.waitForSelector('#replay-notice');
    const focused = await replayShown(page);
    // With room for the timeline below the notice, the timeline; pressing → steps the replay.
    if (height >= 1100) assert.equal(focused, 'bl-scrub');
    if (focused !== 'notice') {
      await page.keyboard.press(focused === 'bl-scrub' ? 'ArrowRight' : 'Enter');
      await page.waitForFunction(() => window.bucketlab.diagram.viewTime > 0);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('on a touch screen at 375 × 812 px, a replay link shows its notice, which says how to play it, with the bucket under it', async () => {
  for (const path of ['en.html', '']) {
    const page = await openLesson(env, `${path}#s=1_5_1_5_4_0.5s1,3_1s1,1`, { viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });
    await page.waitForSelector('#replay-notice');
    assert.equal(await replayShown(page), 'notice', path);
    // The whole notice is in view, above the bucket.
    const [notice, bucket] = await page.evaluate(() => ['#replay-notice', '#bucket-widget .bl-bucket']
      .map((s) => document.querySelector(s).getBoundingClientRect()).map((b) => [b.top, b.bottom]));
    assert.ok(notice[0] >= 0 && notice[1] < bucket[0], `${notice} above ${bucket}`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('the diagram from a script: a moment off the timeline is refused with its range in readable numbers, an argument that is not a number is named, now itself is allowed', async () => {
  const page = await openLesson(env, 'en.html');
  const refused = (at) => page.evaluate((t) => {
    try {
      window.bucketlab.diagram.seek(t);
      return null;
    } catch (error) {
      return error.message;
    }
  }, at);
  for (const at of [-5, 1e9, Number.NaN]) {
    const message = await refused(at);
    // Bounds in whole milliseconds at most, not the running clock's float noise.
    assert.match(message ?? '', /^t must be a finite number from 0 to \d+(\.\d{1,3})?, got (-5|1000000000|NaN)$/);
  }
  // The widget's error line names the argument as the API does, not the core's "now".
  const line = () => page.textContent('#bucket-widget .bl-input-error');
  await refused(-5);
  assert.match(await line(), /^t: -5 is not allowed; use a number from 0 to \d+(\.\d{1,3})?\.$/);
  await page.evaluate(() => { try { window.bucketlab.diagram.sendAt(1); } catch { /* shown below */ } });
  assert.match(await line(), /^wallMs: 1 is not allowed; use a number from [\d.]+ to [\d.]+\.$/);
  await page.evaluate(() => window.bucketlab.diagram.pause());
  // Arguments are numbers, never coerced: a string or null is named, and changes nothing.
  const tokens = await page.evaluate(() => window.bucketlab.diagram.tokens);
  const call = (expression) => page.evaluate((e) => {
    const d = window.bucketlab.diagram;
    try {
      return `returned ${({ send2: () => d.send('2'), sendNull: () => d.send(null), step: () => d.step(), stepBack: () => d.stepBack(null), seek: () => d.seek('0'), configure: () => d.configure('10', 2), setCost: () => d.setCost('3') })[e]()}`;
    } catch (error) {
      return error.message;
    }
  }, expression);
  assert.equal(await call('send2'), 'cost must be a finite number of at least 0, got a value of type string');
  // Named as the script's argument in the widget too: the reader's cost field, which holds a
  // good value, is not blamed.
  assert.match(await line(), /^cost: /);
  assert.equal(await page.getAttribute(`${W} .bl-cost`, 'aria-invalid'), null);
  assert.equal(await call('sendNull'), 'cost must be a finite number of at least 0, got a value of type null');
  assert.equal(await call('step'), 'seconds must be a finite number from 0 to 3600, it is missing');
  assert.equal(await call('stepBack'), 'seconds must be a finite number of at least 0, got a value of type null');
  assert.match(await call('seek'), /^t must be a finite number from 0 to \d+(\.\d{1,3})?, got a value of type string$/);
  assert.equal(await call('configure'), 'capacity must be a finite number greater than 0, got a value of type string');
  assert.equal(await call('setCost'), 'cost must be a whole number from 1 to 5, got a value of type string');
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.capacity, window.bucketlab.diagram.cost]), [5, 1], 'nothing changed');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.tokens), tokens, 'nothing sent');
  const now = await page.evaluate(() => window.bucketlab.diagram.now);
  assert.equal(await refused(now), null, 'the paused moment itself, to the last bit');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.viewTime), now);
  await page.context().close();
});

test('on the Portuguese page, a script\'s refused seek or sendAt carries its problem and the widget\'s words: the page words it in Portuguese, not the English message', async () => {
  const page = await openLesson(env, '');
  const refused = await page.evaluate(async () => {
    const { refusal } = await import('./i18n/refusal.js');
    const d = window.bucketlab.diagram;
    d.pause();
    const out = [];
    for (const call of [() => d.seek(-5), () => d.sendAt(1), () => d.seek('0')]) {
      try {
        call();
        out.push(null);
      } catch (error) {
        out.push({ field: error.problem?.field, rule: error.problem?.rule, page: refusal(error, 'pt-BR'), localized: error.localized, message: error.message });
      }
    }
    return out;
  });
  const [seek, sendAt, seekText] = refused;
  assert.equal(seek.field, 't');
  assert.equal(seek.rule, 'between');
  assert.match(seek.message, /^t must be a finite number from 0 to /);
  assert.match(seek.page, /^t: -5 não é permitido; use um número de 0 a [\d,]+\.$/);
  assert.match(seek.localized, /^t: -5 não é permitido; use um número de 0 a [\d,]+\.$/);
  assert.equal(sendAt.field, 'wallMs');
  assert.match(sendAt.page, /^wallMs: 1 não é permitido; use um número de [\d,]+ a [\d,]+\.$/);
  assert.match(sendAt.localized, /^wallMs: 1 não é permitido; /);
  assert.equal(seekText.field, 't');
  assert.match(seekText.page, /^t: um valor do tipo string não é um número; use um número de 0 a [\d,]+\.$/);
  // The widget's own error line says what `localized` says.
  assert.equal(await page.textContent(`${W} .bl-input-error`), seekText.localized);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the timeline slider gives the lesson time of now when it gets focus, after a spell with nothing moving', async () => {
  const page = await openLesson(env, 'en.html');
  // A full bucket and no request: nothing moves, so no frame redraws the slider while the lesson
  // clock runs on. A screen reader reads the slider's value when focus lands on it.
  await page.waitForFunction(() => window.bucketlab.diagram.now > 2.2);
  await page.locator(`${W} .bl-scrub`).focus();
  const [now, value, text] = await page.evaluate((w) => {
    const slider = document.querySelector(`${w} .bl-scrub`);
    return [window.bucketlab.diagram.now, Number(slider.getAttribute('aria-valuenow')), slider.getAttribute('aria-valuetext')];
  }, W);
  assert.ok(value >= 2 && value <= now, `aria-valuenow ${value} at lesson time ${now}`);
  assert.match(text, new RegExp(`^${value} s\\b`));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const [path, viewport] of [['', SIZES[0]], ['en.html', SIZES[1]]]) {
  test(`${path || 'index.html'} at ${viewport.width} px: travelling in time moves neither the timeline nor the buttons under it, and pausing does not rewrap them`, async () => {
    const page = await openLesson(env, path, { viewport });
    // From the widget's top (parts of the page above it mount as they come near), in whole pixels
    // (the held height is rounded up to a tenth of one: a pixel either way is still put).
    const top = (selector) => page.evaluate(([w, s]) => Math.round(document.querySelector(`${w} ${s}`).getBoundingClientRect().top
      - document.querySelector(w).getBoundingClientRect().top), [W, selector]);
    await page.locator(`${W} .bl-scrub`).scrollIntoViewIfNeeded();
    const before = { back: await top('.bl-step-back') };
    // Pausing swaps the button's word (Pausar → Continuar): the row below stays where it was.
    await page.evaluate(() => window.bucketlab.diagram.pause());
    assert.equal(await top('.bl-step-back'), before.back, 'the step-back button stays put when paused');
    // A second in first: the nine steps back below never reach the chart's start, where the
    // button is unavailable (however soon after loading the clock was paused).
    await page.evaluate(() => window.bucketlab.diagram.step(1));
    for (let i = 0; i < 7; i++) {
      await page.evaluate(() => window.bucketlab.diagram.send(1));
      await page.evaluate(() => window.bucketlab.diagram.step(0.1));
    }
    // The buttons at the screen's foot, the timeline in its place above them: on a phone, a
    // timeline whose place is under the screen holds to its foot instead (sticky), and a click
    // that scrolls the page would move it for that reason alone.
    await page.locator(`${W} .bl-step-back`).scrollIntoViewIfNeeded();
    const live = { scrub: await top('.bl-scrub'), back: await top('.bl-step-back') };
    // Back one step at a time past the first request, where the panel has no response to show.
    const seen = new Set();
    let shownAt = await page.evaluate(() => window.bucketlab.diagram.now);
    for (let i = 0; i < 9; i++) {
      await page.click(`${W} .bl-step-back`);
      // Each click landed on the button: 0.1 s further back.
      const viewTime = await page.evaluate(() => window.bucketlab.diagram.viewTime);
      assert.ok(Math.abs(viewTime - (shownAt - 0.1)) < 1e-9, `click ${i + 1}: ${shownAt} → ${viewTime}`);
      shownAt = viewTime;
      seen.add(await page.getAttribute(`${W} .bl-status`, 'data-outcome'));
      const now = { scrub: await top('.bl-scrub'), back: await top('.bl-step-back') };
      assert.ok(Math.abs(now.scrub - live.scrub) <= 1 && Math.abs(now.back - live.back) <= 1,
        `after ${i + 1} steps back: ${JSON.stringify(now)}, live ${JSON.stringify(live)}`);
    }
    assert.ok(seen.has('denied') && seen.has(null), `past moments with and without a response: ${[...seen]}`);
    await page.click(`${W} .bl-to-live`);
    assert.equal(await page.evaluate(() => window.bucketlab.diagram.traveling), false);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('a past moment after a change of r shows the last response as the bucket that decided it did its arithmetic', async () => {
  const page = await openLesson(env, 'en.html');
  const panel = () => page.evaluate((w) => ['.bl-status', '.bl-head', '.bl-wait']
    .map((s) => document.querySelector(`${w} ${s}`).textContent), W);
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.pause();
    for (let i = 0; i < 6; i++) d.send();
    d.step(0.2);
  });
  const live = await panel();
  assert.match(live[2], /\/\s1 = 1\ss$/, `the 429's wait, at r = 1: ${live[2]}`);
  assert.match(live[1], /RateLimit-Policy: "default";q=5;w=5/);
  // r set to 0 afterwards, then a moment after that change shown: the 429 is still the one
  // decided at r = 1 (its wait is not divided by 0, its policy still has a window).
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.configure(5, 0);
    d.step(0.2);
    d.seek(d.now - 0.1);
  });
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.traveling), true);
  assert.deepEqual(await panel(), live);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('at 1280 px, going back from a 200 into the 429 before it (a taller response) leaves the button clicked and the timeline where they were on the screen', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 1280, height: 800 } });
  // On the screen: the page scrolls by what the response grew, so the pointer stays on the button.
  const top = (selector) => page.evaluate(([w, s]) => document.querySelector(`${w} ${s}`).getBoundingClientRect().top, [W, selector]);
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.pause();
    for (let i = 0; i < 6; i++) d.send();
    d.step(1);
    d.send();
  });
  assert.equal(await page.getAttribute(`${W} .bl-status`, 'data-outcome'), 'allowed', 'live: a 200');
  // Every lazily loaded part in first: one that arrives late (a busy machine) would move the
  // page under the measure, as a CI run saw (365 px, the height a part takes when it mounts).
  await loadEveryPart(page);
  // The button in the middle of the screen, once the sections above it (laid out as they come
  // near) have settled: the same place ten frames in a row.
  await page.evaluate(async (selector) => {
    const button = document.querySelector(selector);
    for (let last = NaN, same = 0; same < 10;) {
      button.scrollIntoView({ block: 'center' });
      await new Promise(requestAnimationFrame);
      const top = button.getBoundingClientRect().top;
      same = Math.abs(top - last) < 0.5 ? same + 1 : 0;
      last = top;
    }
  }, `${W} .bl-step-back`);
  const live = { scrub: await top('.bl-scrub'), back: await top('.bl-step-back') };
  const seen = new Set();
  for (let i = 0; i < 4; i++) {
    await page.click(`${W} .bl-step-back`);
    seen.add(await page.getAttribute(`${W} .bl-status`, 'data-outcome'));
    const now = { scrub: await top('.bl-scrub'), back: await top('.bl-step-back') };
    assert.ok(Math.abs(now.scrub - live.scrub) < 1 && Math.abs(now.back - live.back) < 1,
      `after ${i + 1} steps back: ${JSON.stringify(now)}, live ${JSON.stringify(live)}`);
  }
  assert.ok(seen.has('denied'), `the 429 shown on the way: ${[...seen]}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('from a script, pause() and resume() at a past moment do what the button does: resume plays the recording on, pause stops it there', async () => {
  const page = await openLesson(env, 'en.html?capacity=3&refill-rate=1');
  const state = () => page.evaluate(() => {
    const d = window.bucketlab.diagram;
    return { traveling: d.traveling, viewTime: d.viewTime, now: d.now, button: document.querySelector('#bucket-widget .bl-pause').textContent };
  });
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.pause();
    d.send();
    d.step(5);
    d.send();
    d.seek(1);
  });
  const held = await state();
  assert.deepEqual([held.traveling, held.viewTime, held.button], [true, 1, 'Resume']);
  // Resume: the recording plays on from the moment shown, at the clock's speed, still in the past.
  await page.evaluate(() => window.bucketlab.diagram.resume());
  assert.equal((await state()).button, 'Pause');
  await page.waitForFunction(() => window.bucketlab.diagram.viewTime > 1.2);
  const playing = await state();
  assert.equal(playing.traveling, true);
  assert.ok(playing.viewTime < playing.now, `${playing.viewTime} before ${playing.now}`);
  // Pause: it stops where it is.
  await page.evaluate(() => window.bucketlab.diagram.pause());
  const stopped = await state();
  assert.deepEqual([stopped.traveling, stopped.button], [true, 'Resume']);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r)))));
  assert.equal((await state()).viewTime, stopped.viewTime, 'a stopped playback holds still');
  // live() is what goes back to the live session.
  await page.evaluate(() => window.bucketlab.diagram.live());
  assert.equal((await state()).traveling, false);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a script\'s refused call leaves the error line until its next call: playScenario and showControls clear it too, and only throw their own refusal', async () => {
  const page = await openLesson(env, 'en.html');
  const line = () => page.textContent('#bucket-widget .bl-input-error');
  const refused = (call) => `try { ${call}; } catch { /* thrown, as the README says */ }`;
  for (const call of ['d.playScenario("1_5_1_5_2_0.5s1,1")', 'd.showControls("all")', refused('d.playScenario("garbage")'), refused('d.showControls("foo")')]) {
    await page.evaluate(() => { try { window.bucketlab.diagram.step(-1); } catch { /* shown in the widget */ } });
    assert.match(await line(), /^seconds: -1 is not allowed/);
    await page.evaluate(`(() => { const d = window.bucketlab.diagram; ${call}; })()`);
    assert.equal(await line(), '', call);
  }
  await page.context().close();
});

test('on a laptop\'s short screen (1366×768) the Time group\'s steps keep the counter they change in view: the bucket holds to the top in two columns, within its column, not in an element\'s one', async () => {
  const page = await openLesson(env, 'en.html', { viewport: { width: 1366, height: 768 } });
  // Two seconds of lesson time behind the sends, by the explicit clock: five steps back never reach
  // the timeline's start, where the button is disabled, however soon after the mount they come.
  await page.evaluate(() => { const d = window.bucketlab.diagram; d.pause(); d.step(2); for (let i = 0; i < 6; i++) d.send(); });
  // "Step back 0.1 s" at the screen's foot: the best a reader can do to see both.
  await page.evaluate((W) => scrollBy({ top: document.querySelector(`${W} .bl-step-back`).getBoundingClientRect().bottom - innerHeight + 4, behavior: 'instant' }), W);
  let before = null;
  for (let step = 1; step <= 3; step += 1) {
    await page.click(`${W} .bl-step-back`);
    before = await (await page.waitForFunction((before) => {
      const d = window.bucketlab.diagram;
      return d.traveling && d.viewTime !== before && d.viewTime;
    }, before)).jsonValue();
    const counter = await page.locator(`${W} .bl-counter`).boundingBox();
    assert.ok(counter.y >= 0 && counter.y + counter.height <= 768, `step ${step}: the counter at ${JSON.stringify(counter)}`);
    const back = await page.locator(`${W} .bl-step-back`).boundingBox();
    assert.ok(back.y + back.height <= 768, 'and the button under the finger');
  }
  // A projector's 1024×768, scrolled on to the Time group: the bucket holds only as far as its
  // column beside the response goes, never over the timeline or the controls under it.
  await page.setViewportSize({ width: 1024, height: 768 });
  for (const under of ['.bl-step-back', '.bl-groups']) {
    await page.evaluate(([W, under]) => scrollBy({ top: document.querySelector(`${W} ${under}`).getBoundingClientRect().top - 100, behavior: 'instant' }), [W, under]);
    await page.click(`${W} .bl-step-back`);
    const overlap = await page.evaluate((W) => {
      const box = (s) => document.querySelector(`${W} ${s}`).getBoundingClientRect();
      return { bucket: box('.bl-diagram').bottom, timeline: box('.bl-scrub').top, groups: box('.bl-groups').top };
    }, W);
    assert.ok(overlap.bucket <= overlap.timeline + 0.5 && overlap.bucket <= overlap.groups + 0.5, `scrolled to ${under}: ${JSON.stringify(overlap)}`);
  }
  await page.context().close();
  // An element in a column too narrow for two (the demo page's, 40rem): one column, where the
  // bucket would be held over the controls under it; it is not.
  const demo = await openPage(env.browser, { viewport: { width: 1366, height: 768 } });
  await demo.goto(`${env.server.url}demo/embed-demo.html`);
  await demo.waitForFunction(() => document.querySelector('bucket-lab')?.diagram);
  const position = await demo.evaluate(async () => {
    const lab = document.querySelector('bucket-lab');
    lab.diagram.send();
    lab.diagram.stepBack();
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const root = lab.shadowRoot;
    return { past: !root.querySelector('.bl-to-live').hidden, position: getComputedStyle(root.querySelector('.bl-diagram')).position };
  });
  assert.deepEqual(position, { past: true, position: 'static' });
  await demo.context().close();
});
