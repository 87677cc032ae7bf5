// The diagram's controls against what the diagram shows, with real keys: the sliders hold the
// configuration of the moment on screen and keep a value off their step exactly. Time is driven by
// the diagram's own clock (pause, then steps), never by waiting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser } from './harness.mjs';
import { openLesson, replayShown } from './lesson-helpers.mjs';

const env = useBrowser();
const W = '#bucket-widget';

/**
 * The sliders' values and their outputs in `root` (locators: they reach into <bucket-lab>'s
 * shadow root): [B, B's output, r, r's output].
 */
const sliders = async (page, root) => [
  await page.locator(`${root} .bl-capacity`).inputValue(),
  await page.locator(`${root} .bl-capacity + .bl-out`).textContent(),
  await page.locator(`${root} .bl-rate`).inputValue(),
  await page.locator(`${root} .bl-rate + .bl-out`).textContent(),
];

test('pt-BR: after raising B, Home on the timeline shows the first moment\'s B on the slider too', async () => {
  const page = await openLesson(env, '');
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await page.click(`${W} .bl-send`);
  await page.evaluate(() => window.bucketlab.diagram.step(1));
  await page.focus(`${W} .bl-capacity`);
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  assert.deepEqual(await sliders(page, W), ['10', '10', '1', '1']);
  await page.focus(`${W} [role=slider]`);
  await page.keyboard.press('Home');
  assert.equal(await page.textContent(`${W} .bl-counter`), '5,0 / 5');
  assert.deepEqual(await sliders(page, W), ['5', '5', '1', '1'], 'the moment shown: B = 5');
  await page.keyboard.press('End');
  assert.deepEqual(await sliders(page, W), ['10', '10', '1', '1'], 'live again: B = 10');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('en embed: B = 2.5 and r = 0.25 sit exactly on the sliders, and ArrowRight on r leaves B alone', async () => {
  const page = await openPage(env.browser);
  await page.goto(new URL('embed.html?capacity=2.5&refill-rate=0.25&lang=en&paused', env.server.url).href);
  const root = 'bucket-lab';
  await page.locator(`${root} .bl-widget[data-live]`).waitFor();
  assert.deepEqual(await sliders(page, root), ['2.5', '2.5', '0.25', '0.25']);
  await page.locator(`${root} .bl-rate`).focus();
  await page.keyboard.press('ArrowRight');
  const [capacity, capacityOut, rate] = await sliders(page, root);
  assert.deepEqual([capacity, capacityOut], ['2.5', '2.5'], 'B untouched');
  assert.ok(Number(rate) > 0.25, `r moved up (got ${rate})`);
  assert.match(await page.locator(`${root} .bl-diagram`).textContent(), /B = 2\.5/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('en embed: B = 2.55 reads full as 2.55 / 2.55, and a request leaves 1.55 on the counter and in the status', async () => {
  const page = await openPage(env.browser);
  await page.goto(new URL('embed.html?capacity=2.55&refill-rate=0.01&lang=en&paused', env.server.url).href);
  const root = 'bucket-lab';
  await page.locator(`${root} .bl-widget[data-live]`).waitFor();
  assert.equal(await page.locator(`${root} .bl-counter`).textContent(), '2.55 / 2.55');
  // Set smaller than the default bucket's counter, it stays between the walls (at the counter's
  // height, the inside runs from x = 113 to 247 in the SVG's units).
  const fit = () => page.$eval(`${root} .bl-counter`, (text) => {
    const box = text.getBBox();
    return { left: box.x, right: box.x + box.width, size: parseFloat(getComputedStyle(text).fontSize) };
  });
  const long = await fit();
  assert.ok(long.left >= 115 && long.right <= 245, `inside the walls: ${JSON.stringify(long)}`);
  assert.ok(long.size < 34, `smaller than the default's 34: ${long.size}`);
  await page.locator(`${root} .bl-send`).click();
  await page.locator(`${root} .bl-counter`).filter({ hasText: '1.55 / 2.55' }).waitFor();
  assert.match(await page.locator(`${root} .bl-status`).textContent(), /^Admitted: 1\.55 tokens left/);
  // The timeline's spoken value says the same level.
  assert.match(await page.locator(`${root} .bl-scrub`).getAttribute('aria-valuetext'), /; tokens: 1\.55\./);
  // Back to the default bucket: the stylesheet's size again, still inside.
  await page.evaluate((r) => document.querySelector(r).setAttribute('capacity', '5'), root);
  await page.locator(`${root} .bl-counter`).filter({ hasText: '/ 5' }).waitFor();
  const short = await fit();
  assert.equal(short.size, 34);
  assert.ok(short.left >= 115 && short.right <= 245, `inside the walls: ${JSON.stringify(short)}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// A link made by "Copy a link that replays what you did": B 5 → 6 → 7 → 8, r 1 → 1.5, then three
// requests of cost 2; it ended at 8.5 s.
const REPLAY = '1_5_1_5_8.525500000001863_0.3899000000003725c6,1_0.4292000000011176c7,1_0.5993000000007451c8,1_0.6730999999996276c8,1.5_4.648699999997392s2,1_4.9402999999988815s2,1_5.409900000000372s2,1';

for (const [path, lang, notice, idle] of [
  ['', 'pt-BR', /^Uma gravação está carregada no diagrama abaixo/, /^Nenhuma requisição ainda neste momento\. Para ver o que veio depois, aperte “Continuar”/],
  ['en.html', 'en', /^A recording is loaded in the diagram below/, /^No request yet at this moment\. To see what came next, press “Resume”/],
]) {
  test(`${lang}: a replay link opens at the diagram, says a recording is loaded and how to play it, with every recorded setting`, async () => {
    const page = await openLesson(env, `${path}#lang=${lang}&s=${REPLAY}`, { viewport: { width: 1280, height: 800 } });
    await page.waitForSelector('#replay-notice');
    assert.match(await page.textContent('#replay-notice'), notice);
    assert.equal(await page.getAttribute('#replay-notice', 'role'), 'status');
    // In the page from the start, empty: a status added with its words already in is often not read.
    const html = await (await fetch(`${env.server.url}${path || 'index.html'}`)).text();
    assert.match(html, /<p class="notice" id="replay-notice" role="status"><\/p>/);
    // The sections above grow as they mount while the page scrolls: wait until it has settled
    // there, the bucket and the focused control in view (at 1280 × 800 the timeline is under the
    // send row and the response, within a screen of the bucket: it has the focus).
    assert.equal(await replayShown(page), 'bl-scrub');
    assert.ok(await page.evaluate(() => scrollY > 0));
    await page.focus(`${W} .bl-scrub`);
    assert.equal(await page.inputValue(`${W} .bl-cost`), '2', 'the recorded cost');
    assert.match(await page.textContent(`${W} .bl-status`), idle);
    // The button the status names is there, with that name.
    const resume = (await page.textContent(`${W} .bl-status`)).match(/“([^”]+)”/)[1];
    assert.equal(await page.textContent(`${W} .bl-pause`), resume, 'the status names the Time group\'s button');
    const decimal = lang === 'en' ? '.' : ',';
    assert.deepEqual(await sliders(page, W), ['5', '5', '1', '1'], 'B and r of the first moment');
    await page.keyboard.press('End');
    assert.deepEqual(await sliders(page, W), ['8', '8', '1.5', `1${decimal}5`], 'B and r at its end');
    assert.match(await page.textContent('#replay-notice'), notice, 'at its end, still the recording');
    // A request of the reader's own carries on from there: the notice no longer says how things stand.
    await page.click(`${W} .bl-send`);
    await page.waitForFunction(() => document.getElementById('replay-notice').textContent === '');
    // Nor after a reset, in a recording opened again.
    await page.goto('about:blank');
    await page.goto(`${env.server.url}${path}#lang=${lang}&s=${REPLAY}`);
    await page.waitForSelector(`${W} .bl-widget[data-live]`);
    await page.waitForFunction(() => document.getElementById('replay-notice')?.textContent);
    await page.click(`${W} .bl-reset`);
    await page.waitForFunction(() => document.getElementById('replay-notice').textContent === '');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

for (const [path, lang] of [['', 'pt-BR'], ['en.html', 'en']]) {
  test(`${lang}: following the hero's link carries the hero's requests into the diagram below, once, never over its own`, async () => {
    const page = await openLesson(env, path);
    await page.evaluate(() => window.bucketlab.hero.pause());
    for (let i = 0; i < 4; i++) await page.click('#hero-widget .bl-send');
    const heroCounter = await page.textContent('#hero-widget .bl-counter');
    assert.equal(heroCounter, lang === 'en' ? '1.0 / 5' : '1,0 / 5');
    await page.click('.hero-more a');
    assert.equal(await page.textContent(`${W} .bl-counter`), heroCounter, 'the same bucket below');
    assert.equal(await page.textContent(`${W} .bl-status`), await page.textContent('#hero-widget .bl-status'));
    assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.traveling, window.bucketlab.diagram.paused]), [false, true], 'live, paused as the hero was');
    // Now the diagram has actions of its own: a second visit leaves them alone.
    await page.click(`${W} .bl-send`);
    await page.click('#hero-widget .bl-send');
    await page.click('#hero-widget .bl-send');
    assert.equal(await page.getAttribute('#hero-widget .bl-status', 'data-outcome'), 'denied');
    await page.click('.hero-more a');
    assert.equal(await page.textContent(`${W} .bl-counter`), lang === 'en' ? '0.0 / 5' : '0,0 / 5');
    assert.equal(await page.getAttribute(`${W} .bl-status`, 'data-outcome'), 'allowed', 'its own last request');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

for (const [path, lang, notCarried, carried] of [
  ['', 'pt-BR', /^As requisições que você enviou no balde do topo não foram trazidas/, /^As requisições que você enviou no balde do topo continuam aqui/],
  ['en.html', 'en', /^The requests you sent in the bucket at the top were not carried/, /^Your requests from the bucket at the top go on here/],
]) {
  test(`${lang}: the hero's link carries its requests again over what it carried before; over the reader's own it says why not`, async () => {
    const page = await openLesson(env, path);
    const scenario = (name) => page.evaluate((n) => window.bucketlab[n].scenario, name);
    const notice = '#hero-carry-notice';
    await page.evaluate(() => window.bucketlab.hero.pause());
    for (let i = 0; i < 7; i++) await page.click('#hero-widget .bl-send');
    await page.click('.hero-more a');
    assert.equal(await scenario('diagram'), await scenario('hero'), 'the seven requests below');
    // Back up to the hero: three more there, and the link again carries all ten.
    await page.evaluate(() => scrollTo({ top: 0, behavior: 'instant' }));
    for (let i = 0; i < 3; i++) await page.click('#hero-widget .bl-send');
    await page.click('.hero-more a');
    assert.equal((await scenario('diagram')).split('s1,1').length - 1, 10, 'ten requests below');
    assert.equal(await scenario('diagram'), await scenario('hero'));
    // Said above the diagram (a status, so a screen reader hears it too), until the reader acts there.
    assert.match(await page.textContent(notice), carried);
    assert.equal(await page.getAttribute(notice, 'role'), 'status');
    // The reader acts below: the hero's next requests are not carried over that, and the page says why.
    await page.click(`${W} .bl-reset`);
    assert.equal(await page.locator(notice).isVisible(), false, 'gone once the reader acts below');
    const own = await scenario('diagram');
    await page.evaluate(() => scrollTo({ top: 0, behavior: 'instant' }));
    await page.click('#hero-widget .bl-send');
    await page.click('.hero-more a');
    assert.equal(await scenario('diagram'), own, 'the reader\'s own actions kept');
    assert.equal(await page.locator(notice).isVisible(), true);
    assert.match(await page.textContent(notice), notCarried);
    assert.equal(await page.getAttribute(notice, 'role'), 'status');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('en: paused, the drops are not drawn (a frozen one could sit between the counter\'s characters); running, they fall', async () => {
  const page = await openLesson(env, 'en.html');
  await page.evaluate(() => window.bucketlab.diagram.pause());
  for (let i = 0; i < 5; i++) await page.click(`${W} .bl-send`);
  assert.equal(await page.textContent(`${W} .bl-counter`), '0.0 / 5');
  assert.equal(await page.getAttribute(`${W} .bl-diagram`, 'data-drip'), 'paused');
  const shown = () => page.$$eval(`${W} .bl-drop`, (drops) => drops.map((d) => getComputedStyle(d).visibility));
  assert.deepEqual(await shown(), ['hidden', 'hidden', 'hidden']);
  await page.evaluate(() => window.bucketlab.diagram.resume());
  await page.waitForFunction((w) => document.querySelector(`${w} .bl-diagram`).getAttribute('data-drip') === 'on', W);
  // r = 1/s: one drop in the air (see the next test), the other two not drawn at all.
  assert.deepEqual(await page.$$eval(`${W} .bl-drop`, (drops) => drops.map((d) => getComputedStyle(d).display !== 'none' && getComputedStyle(d).visibility)),
    ['visible', false, false]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// One drop is one token: a drop leaves the tap r times a lesson second (at most 3), so a reader
// counting drops counts the refill. (Three drops a period apart once fell 3 times a second at r = 1.)
test('en: the drops leave the tap r times a lesson second, evenly spaced, at every rate and speed', async () => {
  const page = await openLesson(env, 'en.html');
  // In view: drops fall only where someone can see them.
  await page.evaluate((w) => document.querySelector(`${w} .bl-diagram`).scrollIntoView({ block: 'center', behavior: 'instant' }), W);
  for (const [rate, speed, falling] of [[1, '1', 1], [0.5, '1', 1], [2, '1', 2], [3, '1', 3], [10, '1', 3], [1, '4', 3], [1, '0.25', 1]]) {
    await page.selectOption(`${W} .bl-speed`, speed);
    await page.evaluate((r) => {
      const d = window.bucketlab.diagram;
      // Emptied, and large enough to take seconds to refill at every rate here.
      d.configure(50, r);
      for (let i = 0; i < 50; i++) d.send();
    }, rate);
    const fall = await page.waitForFunction(({ w, n }) => {
      const svg = document.querySelector(`${w} .bl-diagram`);
      const drawn = [...svg.querySelectorAll('.bl-drop')].filter((d) => getComputedStyle(d).display !== 'none');
      if (svg.dataset.drip !== 'on' || drawn.length !== n) return false;
      const timings = drawn.map((d) => {
        const [a] = d.getAnimations();
        const { duration, progress } = a.effect.getComputedTiming();
        return { duration, progress, running: a.playState === 'running' };
      });
      // Until the animations have started (pending on a busy machine) their progress is null.
      return timings.every((t) => t.progress !== null) && timings;
    }, { w: W, n: falling });
    const drops = await fall.jsonValue();
    const label = `r = ${rate}/s at ${speed}×`;
    assert.ok(drops.every((d) => d.running), `${label}: every drawn drop falls`);
    // n drops, each falling for `duration` ms: n / duration drops a wall second.
    const perWallSecond = falling / (drops[0].duration / 1000);
    assert.ok(Math.abs(perWallSecond - Math.min(rate, 3) * Number(speed)) < 1e-3, `${label}: ${perWallSecond} drops a wall second`);
    assert.ok(drops.every((d) => d.duration === drops[0].duration), `${label}: one fall time`);
    // Evenly spaced: the drops' places in their fall are 1/n apart.
    const at = drops.map((d) => d.progress).sort((a, b) => a - b);
    for (let i = 1; i < at.length; i++) assert.ok(Math.abs(at[i] - at[i - 1] - 1 / falling) < 0.02, `${label}: drops at ${at}`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('en: a falling drop is never drawn over the counter or its unit, and shows above and below them', async () => {
  const page = await openLesson(env, 'en.html');
  for (let i = 0; i < 3; i++) await page.click(`${W} .bl-send`);
  await page.waitForFunction((w) => document.querySelector(`${w} .bl-diagram`).getAttribute('data-drip') === 'on', W);
  // One drop walked through its fall by its animation's clock (one task: nothing moves meanwhile).
  const samples = await page.$eval(W, (widget) => {
    const drop = widget.querySelector('.bl-drop');
    const [fall] = drop.getAnimations();
    const { duration } = fall.effect.getComputedTiming();
    const out = [];
    for (let i = 0; i < 200; i++) {
      fall.currentTime = (duration * i) / 200;
      const d = drop.getBoundingClientRect();
      const top = widget.querySelector('.bl-counter').getBoundingClientRect().top;
      const bottom = widget.querySelector('.bl-unit').getBoundingClientRect().bottom;
      out.push({ i, over: d.bottom > top && d.top < bottom, above: d.bottom <= top, below: d.top >= bottom, opacity: Number(getComputedStyle(drop).opacity) });
    }
    return out;
  });
  const drawnOver = samples.filter((s) => s.over && s.opacity > 0);
  assert.deepEqual(drawnOver, [], 'a drop drawn across the counter or its unit');
  assert.ok(samples.some((s) => s.above && s.opacity === 1), 'the drop shows above the counter');
  assert.ok(samples.some((s) => s.below && s.opacity === 1), 'and again under its unit');
  assert.ok(samples.filter((s) => s.over).length >= 20, 'the fall crosses the counter');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('at 375 px a 429\'s response head keeps one header a line, and the formulas break only between their sides', async () => {
  const page = await openLesson(env, '', { viewport: { width: 375, height: 812 } });
  await page.evaluate(() => window.bucketlab.diagram.pause());
  for (let i = 0; i < 6; i++) await page.click(`${W} .bl-send`);
  assert.match(await page.textContent(`${W} .bl-status`), /429/);
  const head = await page.$eval(`${W} .bl-head`, (pre) => {
    const lineHeight = parseFloat(getComputedStyle(pre).lineHeight);
    const padding = parseFloat(getComputedStyle(pre).paddingTop) + parseFloat(getComputedStyle(pre).paddingBottom);
    return { lines: pre.textContent.split('\n').length, drawn: Math.round((pre.clientHeight - padding) / lineHeight), tab: pre.tabIndex, name: pre.getAttribute('aria-label') };
  });
  assert.equal(head.drawn, head.lines, `${head.lines} headers on ${head.drawn} lines`);
  assert.equal(head.tab, 0, 'a head wider than the panel scrolls from the keyboard too');
  assert.equal(head.name, 'Resposta HTTP: linha de status e cabeçalhos', 'and says what it is when focused');
  // Each drawn line of a formula starts with a side of it: a name, "=" or a number, never inside
  // min(…) or (c − tokens).
  const starts = await page.$eval(`${W} .bl-formula`, (p) => {
    const range = document.createRange();
    const text = p.firstChild;
    const tops = new Map();
    for (let i = 0; i < text.length; i++) {
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const rect = range.getBoundingClientRect();
      if (rect.width === 0 || text.data[i] === '\n') continue;
      const top = Math.round(rect.top);
      tops.set(top, (tops.get(top) ?? '') + text.data[i]);
    }
    return [...tops.values()].map((line) => line.trim());
  });
  assert.ok(starts.length >= 2, starts.join(' | '));
  for (const line of starts) {
    assert.match(line, /^(tokens|= |min\(|admitida|espera|\(|-?[\d,]+$)/, `a line starts inside an expression: ${starts.join(' | ')}`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('pt-BR page in an English browser: a traffic rate typed 2,5 starts the traffic at 2.5/s, not at the 25 a number field made of it', async () => {
  const page = await openLesson(env, '', { locale: 'en-US' });
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await page.fill(`${W} .bl-traffic-rate`, '');
  await page.focus(`${W} .bl-traffic-rate`);
  await page.keyboard.type('2,5');
  await page.selectOption(`${W} .bl-traffic`, 'poisson');
  assert.equal(await page.inputValue(`${W} .bl-traffic-rate`), '2,5');
  assert.equal(await page.textContent(`${W} .bl-input-error`), '');
  // The recorded action: Poisson ("p") at 2.5 requests/s, seed 42.
  assert.match(await page.evaluate(() => window.bucketlab.diagram.scenario), /p2\.5,42$/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('en: the traffic fields show the moment on screen: off before the traffic started, its pattern, rate and seed after, live again at End', async () => {
  const page = await openLesson(env, 'en.html');
  // Lesson time ran from the mount until the pause: t0. Poisson from t0 + 1 s, steady from t0 + 2 s.
  const t0 = await page.evaluate(() => { window.bucketlab.diagram.pause(); return window.bucketlab.diagram.now; });
  await page.click(`${W} .bl-send`);
  await page.evaluate(() => window.bucketlab.diagram.step(1));
  await page.fill(`${W} .bl-traffic-rate`, '2.5');
  await page.fill(`${W} .bl-seed`, '7');
  await page.selectOption(`${W} .bl-traffic`, 'poisson');
  await page.evaluate(() => window.bucketlab.diagram.step(1));
  await page.selectOption(`${W} .bl-traffic`, 'steady');
  await page.fill(`${W} .bl-traffic-rate`, '4');
  await page.dispatchEvent(`${W} .bl-traffic-rate`, 'change');
  await page.evaluate(() => window.bucketlab.diagram.step(1));
  const traffic = () => page.evaluate((w) => ['.bl-traffic', '.bl-traffic-rate', '.bl-seed']
    .map((s) => document.querySelector(`${w} ${s}`).value), W);
  assert.deepEqual(await traffic(), ['steady', '4', '7']);
  await page.focus(`${W} [role=slider]`);
  await page.keyboard.press('Home');
  assert.equal((await traffic())[0], 'off', 'before the traffic started');
  // Home is lesson time 0 (less than 20 s went by); each ArrowRight is 0.1 s.
  for (let i = 0; i < Math.round((t0 + 1.5) * 10); i++) await page.keyboard.press('ArrowRight');
  assert.deepEqual(await traffic(), ['poisson', '2.5', '7'], 't0 + 1.5 s: Poisson at 2.5/s, seed 7');
  await page.keyboard.press('End');
  assert.deepEqual(await traffic(), ['steady', '4', '7'], 'live again');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/** The panel's status, formula and wait lines in `root`. */
const panel = (page, root = W) => page.evaluate((w) => ['.bl-status', '.bl-formula', '.bl-wait', '.bl-head']
  .map((s) => document.querySelector(`${w} ${s}`).textContent), root);

// Actions happen at whole milliseconds (src/limiter/session.rs, `action_time`), so the clock is
// stepped by whole milliseconds and the fraction of a token comes from a slow rate.
const SHORT_BY_0_0004 = () => {
  const d = window.bucketlab.diagram;
  d.pause();
  d.configure(5, 0.1);
  for (let i = 0; i < 5; i++) d.send();
  d.step(9.996);
  d.send();
};

test('en: a denial 0.0004 tokens short reads as short (not "1 … 0 s"), and a tiny rate is never shown as 0', async () => {
  const page = await openLesson(env, 'en.html');
  await page.evaluate(SHORT_BY_0_0004);
  // The bucket holds 9.996 · 0.1 = 0.9996 < 1: refused, and the numbers shown say so.
  const [status, formula, wait] = await panel(page);
  assert.equal(status, 'Denied: 429 with Retry\u2011After: 1 (the exact wait: 0.004\u00a0s).');
  assert.equal(formula.replace(/\u00a0/g, ' '), 'tokens = min(B, tokens + Δt·r) = min(5, 0 + 9.996·0.1) = 0.9996');
  assert.equal(wait, 'wait = (c\u00a0−\u00a0tokens)\u00a0/\u00a0r = (1\u00a0−\u00a00.9996)\u00a0/\u00a00.1 = 0.004\u00a0s');

  // r = 0.0004 and r = 10⁻²⁰: the rate is written, never as "0" (a division by zero).
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.configure(5, 0.0004);
    d.step(100);
    d.send();
    d.send();
  });
  const [, slowFormula, slowWait] = await panel(page);
  assert.match(slowFormula.replace(/\u00a0/g, ' '), /= min\(5, 0\.0396 \+ 0·0\.0004\) = 0\.0396$/);
  assert.match(slowWait.replace(/\u00a0/g, ' '), /= \(1 − 0\.0396\) \/ 0\.0004 = 2401 s$/);
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.configure(5, 1e-20);
    d.send();
  });
  const [, tinyFormula, tinyWait, head] = await panel(page);
  assert.match(tinyFormula, /·1e-20\) = /);
  assert.match(tinyWait, /\u00a0\/\u00a01e-20 = \d/);
  assert.doesNotMatch(`${tinyFormula} ${tinyWait}`, /\/\u00a00 =|·0\)/);
  // ⌈wait⌉ with all its digits, never capped at 2^64 − 1.
  const retryAfter = head.match(/Retry-After: (\d+)/)[1];
  assert.ok(retryAfter.length >= 20 && retryAfter !== '18446744073709551615', retryAfter);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('pt-BR: the same denial, with the decimal comma', async () => {
  const page = await openLesson(env, '');
  await page.evaluate(SHORT_BY_0_0004);
  const [status, formula, wait] = await panel(page);
  assert.equal(status, 'Negada: 429 com Retry\u2011After: 1 (a espera exata: 0,004\u00a0s).');
  assert.match(formula.replace(/\u00a0/g, ' '), /= min\(5; 0 \+ 9,996·0,1\) = 0,9996$/);
  assert.match(wait, /\(1\u00a0−\u00a00,9996\)\u00a0\/\u00a00,1 = 0,004\u00a0s$/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('B below 1: the note says every request will be refused, never "cost lowered to 1" (console, link, embed)', async () => {
  const page = await openLesson(env, 'en.html');
  const note = () => page.textContent(`${W} .bl-controls-note`);
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.pause();
    d.setCost(2);
    d.configure(0.5, 1);
  });
  assert.equal(await note(), 'B = 0.5 is less than 1, the smallest cost c a request can have here: every request will be refused, whatever its cost.');
  assert.equal(await page.inputValue(`${W} .bl-cost`), '1');
  await page.evaluate(() => window.bucketlab.diagram.configure(5, 1));
  assert.equal(await note(), '', 'gone with B = 5');
  await page.context().close();

  const linked = await openLesson(env, 'en.html#b=0.5&r=1&c=1');
  assert.match(await linked.textContent(`${W} .bl-controls-note`), /^B = 0\.5 is less than 1.*every request will be refused/);
  assert.deepEqual(linked.problems, []);
  await linked.context().close();

  const embed = await openPage(env.browser);
  await embed.goto(new URL('embed.html?capacity=0.5&cost=1&paused', env.server.url).href);
  await embed.locator('bucket-lab .bl-widget[data-live]').waitFor();
  assert.match(await embed.locator('bucket-lab .bl-controls-note').textContent(), /^B = 0,5 é menor que 1.*toda requisição será negada/);
  assert.deepEqual(embed.problems, []);
  await embed.context().close();
});
