// The algorithm lab on the lesson page: loaded lazily, the window-edge preset, the limit keys,
// the quiz scored right and wrong from the keyboard, language switching and bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, CSP } from './harness.mjs';
import { answerSome, loadPart, quizShown } from './lesson-helpers.mjs';

const env = useBrowser();
const LAB = '#algorithm-lab';

/** Opens the lesson, scrolls to the lab and waits until it is mounted. */
async function openLab(options) {
  const page = await openPage(env.browser, options);
  page.wasmRequests = [];
  page.on('request', (r) => { if (r.url().endsWith('.wasm')) page.wasmRequests.push(r.url().split('/').pop()); });
  await page.goto(env.server.url);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await loadPart(page, LAB, 'lab-ready');
  return page;
}

const lane = (name) => `${LAB} .lab-comparison .lab-row[data-lane="${name}"]`;

/** Times (s) of the admitted marks shown in a lane, read back from their x position. */
async function admittedTimes(page, name, duration) {
  const xs = await page.$$eval(`${lane(name)} circle.lab-ok:not(.lab-future)`, (marks) => marks.map((m) => Number(m.getAttribute('cx'))));
  return xs.map((x) => ((x - 8) / 584) * duration);
}

test('lab: the lab loads only near the viewport, in its own wasm module, without console problems', async () => {
  const page = await openPage(env.browser);
  const wasm = [];
  page.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(r.url().split('/').pop()); });
  await page.goto(env.server.url);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  assert.deepEqual(wasm, ['bucketlab_bg.wasm'], 'only the diagram at first');
  // Its placeholder says it is loading (its text for a page without JavaScript would not be true).
  assert.equal((await page.textContent(LAB)).trim(), 'Carregando…');
  await page.locator(LAB).scrollIntoViewIfNeeded();
  await page.waitForSelector(`${LAB}.lab-ready`);
  assert.deepEqual(wasm, ['bucketlab_bg.wasm', 'bucketlab_lab_bg.wasm']);
  assert.equal(await page.locator(`${LAB} .lab-comparison .lab-row`).count(), 7);
  // One comparison table in the section: the page's own (it reads without JavaScript), and it
  // names the lab's seven algorithms.
  assert.equal(await page.locator(`${LAB} table`).count(), 0, 'the lab adds no second table');
  const names = await page.$$eval(`${LAB} .lab-algorithms dt`, (dts) => dts.map((dt) => dt.textContent));
  const rows = await page.$$eval('#comparacao table tbody th', (ths) => ths.map((th) => th.textContent));
  assert.equal(names.length, 7);
  assert.deepEqual([...rows].sort(), [...names].sort());
  assert.ok((await page.locator(`${LAB} .quiz-question`).count()) >= 6);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lab: a lab whose code does not arrive says so where it goes, with a button that reloads the page', async () => {
  const page = await openPage(env.browser);
  // As after a new release replaced the files this page names: the lab's module is gone.
  const asked = [];
  await page.route('**/lab/app.js', (route) => { asked.push(route.request().url()); route.fulfill({ status: 404, body: 'not found' }); });
  await page.goto(new URL('en.html', env.server.url).href);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  // Loaded by the page's loader, as the first Tab or the scroll would (and then by nothing else).
  await page.waitForFunction(() => typeof window.bucketlab?.loadLab === 'function');
  assert.equal(await page.evaluate(() => window.bucketlab.loadLab().then(() => 'loaded', () => 'failed')), 'failed');
  assert.equal((await page.textContent(LAB)).trim(),
    'This part of the lesson did not load: the connection may have dropped, or the site was updated since this page opened. Try again Reload the page');
  assert.equal(asked.length, 1);
  // Said once on the console, with the browser's own line for the 404; no uncaught rejection.
  assert.equal(page.problems.filter((p) => p.startsWith('warning: bucketlab: the lab part did not load')).length, 1, page.problems.join('\n'));
  assert.deepEqual(page.problems.filter((p) => !/did not load|Failed to load resource/.test(p)), []);
  // The page's loader is not stuck on the failure: called again, it asks for the code again.
  await page.evaluate(() => window.bucketlab.loadLab().catch(() => {}));
  assert.equal(asked.length, 2);
  // The button reloads the page; with the code back, the lab loads.
  await page.unroute('**/lab/app.js');
  await Promise.all([page.waitForEvent('load'), page.click(`${LAB} .part-reload`)]);
  await loadPart(page, LAB, 'lab-ready');
  assert.equal(await page.locator(`${LAB} .lab-comparison .lab-row`).count(), 7);
  await page.context().close();
});

test('lab: offline, "Try again" keeps the page and says so again; the connection back loads the lab in place, styled', async () => {
  const page = await openPage(env.browser);
  await page.goto(new URL('en.html', env.server.url).href);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await page.waitForFunction(() => typeof window.bucketlab?.loadLab === 'function');
  await page.evaluate(() => { window.kept = window.bucketlab.diagram; window.kept.pause(); window.kept.send(); });
  await page.context().setOffline(true);
  assert.equal(await page.evaluate(() => window.bucketlab.loadLab().then(() => 'loaded', () => 'failed')), 'failed');
  // From the keyboard: the focus stays in the part (its line says it loads), never the page's top.
  await page.focus(`${LAB} .part-retry`);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${LAB} .part-retry`);
  assert.equal(await page.evaluate((lab) => document.querySelector(lab).contains(document.activeElement), LAB), true);
  assert.equal(page.url(), new URL('en.html', env.server.url).href, 'still the lesson, not the browser\'s offline page');
  // The connection back tries by itself: the lab in place, with its stylesheet, the diagram as it was.
  await page.context().setOffline(false);
  await page.waitForSelector(`${LAB}.lab-ready`);
  // The focus on the lab's first heading: the next Tab goes on into the lab.
  await page.waitForFunction((lab) => document.activeElement === document.querySelector(`${lab} .lab-heading`), LAB);
  assert.equal(await page.evaluate((lab) => getComputedStyle(document.querySelector(`${lab} .lab-form`)).display, LAB), 'grid');
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram === window.kept, window.kept.tokens]), [true, 4]);
  await page.context().close();
});

test('lab: a lab whose wasm did not load says so in its own words, with Try again, which loads it in place', async () => {
  const page = await openPage(env.browser);
  await page.route('**/bucketlab_lab_bg*.wasm', (route) => route.abort());
  await page.goto(new URL('en.html', env.server.url).href);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await page.waitForFunction(() => typeof window.bucketlab?.loadLab === 'function');
  assert.equal(await page.evaluate(() => window.bucketlab.loadLab().then(() => 'loaded', () => 'failed')), 'failed');
  assert.match(await page.textContent(`${LAB} > [role=alert]`), /Try again$/);
  await page.unroute('**/bucketlab_lab_bg*.wasm');
  await page.click(`${LAB} > [role=alert] .part-retry`);
  await page.waitForSelector(`${LAB}.lab-ready`);
  assert.equal(await page.locator(`${LAB} .lab-comparison .lab-row`).count(), 7);
  await page.context().close();
});

test('lab: every "Try this" button keeps its label on one line beside a long description (en, 1280 and 375 px)', async () => {
  for (const width of [1280, 375]) {
    const page = await openPage(env.browser, { viewport: { width, height: 800 } });
    await page.goto(`${env.server.url}en.html`);
    await loadPart(page, LAB, 'lab-ready');
    const lines = await page.$$eval(`${LAB} [data-experiment] button`, (buttons) => buttons.map((b) => {
      const range = document.createRange();
      range.selectNodeContents(b);
      // One rectangle per line box of the label's text.
      return [b.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
    }));
    assert.equal(lines.length, 6, `${width} px: six experiments`);
    for (const [label, count] of lines) assert.equal(count, 1, `${width} px: "${label}" on ${count} lines`);
    await page.context().close();
  }
});

test('lab: window-edge preset: the fixed window admits 2 × limit within 1 s, the sliding log at most the limit', async () => {
  const page = await openLab();
  // Set it up as a learner would: the "Try this" button, from the keyboard.
  await page.focus(`${LAB} [data-experiment="windowEdge"] button`);
  await page.keyboard.press('Enter');
  // Said as after Apply: the new lanes' totals (a screen reader hears what the set-up did).
  const said = await page.evaluate((lab) => {
    const text = document.querySelector(`${lab} .lab-comparison p[aria-live=polite]`).textContent;
    window.bucketlab.lab.comparison.pause();
    return text;
  }, LAB);
  assert.equal(await page.inputValue(`${LAB} .lab-pattern`), 'windowEdge');
  assert.match(said, /^Faixas refeitas, \d+ requisições em [\d,]+ s: Janela fixa, admitidas: 20, atrasadas: 0, negadas: \d+; /);

  // Drive the explicit clock: just before the boundary only the first requests have arrived.
  await page.evaluate(() => window.bucketlab.lab.comparison.seek(0.955));
  assert.match(await page.textContent(`${lane('fixedWindow')} .lab-counts`), /^admitidas: 6 · atrasadas: 0 · negadas: 0$/);
  await page.focus(`${LAB} .lab-step`);
  await page.keyboard.press('Enter'); // + 0.1 s
  assert.equal(await page.evaluate(() => window.bucketlab.lab.comparison.time.toFixed(3)), '1.055');
  assert.match(await page.textContent(`${LAB} .lab-time`), /^t = 1,1 s$/);
  // The step is said: the moment and each lane's counts by then.
  assert.match(await page.textContent(`${LAB} .lab-comparison p[aria-live=polite]`), /^t = 1,1 s: Janela fixa, admitidas: \d+, atrasadas: 0, negadas: \d+; .+\.$/);

  // Before the burst the counts are small, and the peak says it is the whole run's (not the 1.1 s shown).
  const early = await admittedTimes(page, 'fixedWindow', 1.1);
  assert.ok(early.length < 20, `${early.length} admitted by 1.1 s`);
  assert.match(await page.textContent(`${lane('fixedWindow')} .lab-peak-text`), /^pico na execução inteira: 20 em 1\u00a0s$/);
  await page.evaluate(() => window.bucketlab.lab.comparison.seek(2.5));
  const fixed = await admittedTimes(page, 'fixedWindow', 2.5);
  assert.equal(fixed.length, 20);
  assert.ok(Math.max(...fixed) - Math.min(...fixed) < 1, `20 admitted within ${Math.max(...fixed) - Math.min(...fixed)} s`);
  assert.match(await page.textContent(`${lane('fixedWindow')} .lab-peak-text`), /^pico na execução inteira: 20 em 1\u00a0s$/);
  const log = await admittedTimes(page, 'slidingLog', 2.5);
  assert.ok(log.length <= 10, `sliding log admitted ${log.length}`);
  assert.match(await page.textContent(`${lane('slidingLog')} .lab-peak-text`), /^pico na execução inteira: 10 em 1\u00a0s$/);
  assert.equal(await page.locator(`${lane('slidingLog')} path.lab-deny:not(.lab-future)`).count(), 10);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lab: play runs the lanes forward to the end and stops', async () => {
  const page = await openLab();
  await page.evaluate(() => window.bucketlab.lab.comparison.seek(0));
  await page.click(`${LAB} .lab-play`);
  assert.equal(await page.textContent(`${LAB} .lab-play`), 'Pausar');
  await page.waitForFunction(() => !window.bucketlab.lab.comparison.playing);
  assert.equal(await page.evaluate(() => window.bucketlab.lab.comparison.time), 2.5);
  assert.equal(await page.textContent(`${LAB} .lab-play`), 'Reproduzir');
  await page.context().close();
});

test('lab: seek and step from the console refuse what is not a number, seek what is off the axis, naming it and the range, and Play still runs', async () => {
  const page = await openLab();
  await page.evaluate(() => window.bucketlab.lab.comparison.seek(1));
  const refused = (expression) => page.evaluate((e) => {
    const c = window.bucketlab.lab.comparison;
    try {
      ({ none: () => c.seek(), nothing: () => c.seek(null), nan: () => c.seek(Number.NaN), text: () => c.seek('2abc'), digits: () => c.seek('1'), below: () => c.seek(-1), beyond: () => c.seek(1e9), step: () => c.step(Infinity) })[e]();
      return null;
    } catch (error) {
      return error.message;
    }
  }, expression);
  const range = '(the axis runs from 0 to 2.5)';
  assert.equal(await refused('none'), `time must be a finite number of seconds ${range}, got nothing`);
  assert.equal(await refused('nothing'), `time must be a finite number of seconds ${range}, got null`);
  assert.equal(await refused('nan'), `time must be a finite number of seconds ${range}, got NaN`);
  assert.equal(await refused('text'), `time must be a finite number of seconds ${range}, got "2abc" (a string)`);
  assert.equal(await refused('digits'), `time must be a finite number of seconds ${range}, got "1" (a string)`);
  // Off the axis: refused as NaN is, not moved to its nearer end.
  assert.equal(await refused('below'), `time must be a finite number of seconds ${range}, got -1`);
  assert.equal(await refused('beyond'), `time must be a finite number of seconds ${range}, got 1000000000`);
  assert.equal(await refused('step'), `seconds must be a finite number of seconds ${range}, got Infinity`);
  assert.equal(await page.evaluate(() => window.bucketlab.lab.comparison.time), 1, 'nothing changed');
  await page.click(`${LAB} .lab-play`);
  await page.waitForFunction(() => !window.bucketlab.lab.comparison.playing);
  assert.equal(await page.evaluate(() => window.bucketlab.lab.comparison.time), 2.5);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/** Selects `value` in a question's radio group with the arrow keys, then checks it with Enter. */
async function answer(page, id, value) {
  const question = `${LAB} [data-question="${id}"]`;
  await page.focus(`${question} input[type=radio]`);
  await page.keyboard.press('Space');
  for (let i = 0; i < 5 && (await page.$eval(`${question} input:checked`, (r) => r.value)) !== value; i++) {
    await page.keyboard.press('ArrowDown');
  }
  assert.equal(await page.$eval(`${question} input:checked`, (r) => r.value), value);
  await page.focus(`${question} .quiz-check`);
  await page.keyboard.press('Enter');
  return page.textContent(`${question} .quiz-verdict`);
}

test('lab: the quiz scores right and wrong answers, explains, and plays a generated question out', async () => {
  const page = await openLab();
  const score = () => page.textContent(`${LAB} .lab-score`);
  assert.equal(await score(), 'certas: 0 de 8 · respondidas: 0');

  assert.match(await answer(page, 'memory', 'slidingLog'), /^Certo!/);
  assert.equal(await score(), 'certas: 1 de 8 · respondidas: 1');

  const wrong = await answer(page, 'smooth', 'tokenBucket');
  assert.match(wrong, /^Não foi desta vez\. Resposta certa: Balde furado \(fila\)\./);
  assert.equal(await score(), 'certas: 1 de 8 · respondidas: 2');
  assert.equal(await page.locator(`${LAB} [data-question="smooth"] input:disabled`).count(), 4, 'answered once only');

  // A question generated from the core: the fixed window lets 2 × limit through the boundary.
  const prompt = await page.textContent(`${LAB} [data-question="edge"] legend`);
  const limit = Number(prompt.match(/limite (\d+)/)[1]);
  assert.match(await answer(page, 'edge', String(2 * limit)), /^Certo!/);
  assert.equal(await score(), 'certas: 2 de 8 · respondidas: 3');
  await page.waitForSelector(`${LAB} [data-question="edge"] .lab-playback .lab-row`);
  assert.equal(await page.locator(`${LAB} [data-question="edge"] .lab-playback .lab-row`).count(), 2);
  assert.equal(await page.locator(`${LAB} [data-question="edge"] .lab-playback-note`).count(), 0, 'every request is the question\'s');
  // Its requests are ringed from under every mark: marks close together keep their fills (a ring
  // drawn on its own mark covered the mark before it), one ring per ringed request.
  assert.deepEqual(await page.evaluate((lab) => [...document.querySelectorAll(`${lab} [data-question="edge"] .lab-playback .lab-strip`)].map((strip) => {
    const [rings, marks] = [strip.querySelector('.lab-rings'), strip.querySelector('.lab-marks')];
    const strokes = [...marks.children].map((m) => getComputedStyle(m).strokeWidth);
    return { under: rings.nextElementSibling === marks, rings: rings.children.length === marks.children.length, stroked: strokes.filter((w) => w !== '1px' && w !== '0px').length };
  }), LAB), [{ under: true, rings: true, stroked: 0 }, { under: true, rings: true, stroked: 0 }]);
  // The bucket question's playback starts with the B requests that emptied it: it says so, as the
  // lanes' counts include them.
  const bucket = await page.textContent(`${LAB} [data-question="tokens"] legend`);
  const capacity = Number(bucket.match(/B = (\d+)/)[1]);
  await answer(page, 'tokens', 'all');
  await page.waitForSelector(`${LAB} [data-question="tokens"] .lab-playback .lab-row`);
  assert.equal(await page.textContent(`${LAB} [data-question="tokens"] .lab-playback-note`),
    `Os pontos com anel são as requisições da pergunta; as ${capacity} que vêm antes delas montam a situação, e as contagens abaixo as incluem.`);
  assert.match(await score(), /respondidas: 4$/);

  // Checking with nothing chosen says so and scores nothing.
  const before = await score();
  await page.click(`${LAB} [data-question="gcra"] .quiz-check`);
  assert.match(await page.textContent(`${LAB} [data-question="gcra"] .quiz-verdict`), /Escolha uma resposta/);
  assert.equal(await score(), before);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lab: limit keys: the noisy client alone gets 429s by token; its neighbours share them by IP or user', async () => {
  const page = await openLab();
  const denied = async () => Object.fromEntries(await page.$$eval(`${LAB} .lab-key-summary li`,
    (items) => items.map((li) => [li.dataset.client, Number(li.textContent.match(/(\d+)\u00a0× 429/)[1])])));
  let d = await denied();
  assert.ok(d.export > 0 && d.web === 0 && d.mobile === 0, JSON.stringify(d));

  // The explanation is a polite live region: the same node, its words changed, so it is spoken.
  const before = await page.evaluate((lab) => { window.__explain = document.querySelector(`${lab} .lab-key-explain`); return window.__explain.textContent; }, LAB);
  await page.focus(`${LAB} .lab-key-kinds input[value="token"]`);
  await page.keyboard.press('ArrowRight'); // → IP
  await page.waitForFunction(() => window.bucketlab.lab.keys.kind === 'ip');
  d = await denied();
  assert.ok(d.web > 0 && d.mobile === 0, `by IP: ${JSON.stringify(d)}`);
  assert.equal(await page.evaluate(() => document.activeElement.value), 'ip', 'focus stays on the choice');
  const explain = await page.evaluate((lab) => ({ same: document.querySelector(`${lab} .lab-key-explain`) === window.__explain, text: window.__explain.textContent, live: window.__explain.getAttribute('aria-live') }), LAB);
  assert.deepEqual([explain.same, explain.live], [true, 'polite']);
  assert.notEqual(explain.text, before);
  assert.equal(await page.locator(`${LAB} [data-lane="mobile"] .lab-caption`).count(), 1, 'the lanes are drawn again');

  await page.keyboard.press('ArrowRight'); // → user
  await page.waitForFunction(() => window.bucketlab.lab.keys.kind === 'user');
  d = await denied();
  assert.ok(d.mobile > 0 && d.web === 0, `by user: ${JSON.stringify(d)}`);
  // Each key's lane is named with its counts; it has no whole-run peak, so none is said (not "–").
  const titles = await page.$$eval(`${LAB} .lab-key-summary ~ * svg > title`, (all) => all.map((t) => t.textContent));
  assert.ok(titles.length >= 3, titles.join(' | '));
  for (const title of titles) assert.match(title, /^[^–]+, até [\d,]+ s — admitidas: \d+, atrasadas: \d+, negadas: \d+$/);
  await page.context().close();
});

test('lab: traffic too large to draw says how many requests it has and what to change in this pattern\'s fields', async () => {
  const page = await openLab();
  const error = `${LAB} .lab-comparison .lab-error`;
  // The attack on the window edge has no rate field: the message names what it has.
  await page.selectOption(`${LAB} .lab-pattern`, 'windowEdge');
  await page.fill(`${LAB} .lab-field--window input`, '0.001');
  await page.click(`${LAB} .lab-apply`);
  assert.match(await page.textContent(error), /^Este tráfego tem [\d.]+ requisições, e as faixas desenham no máximo 3\.000: aumente a janela w, diminua o limite ou encurte a duração\.$/);
  await page.selectOption(`${LAB} .lab-pattern`, 'steady');
  await page.fill(`${LAB} .lab-field--window input`, '1');
  await page.fill(`${LAB} .lab-field--rate input`, '100000');
  await page.fill(`${LAB} .lab-field--duration input`, '2.5');
  await page.click(`${LAB} .lab-apply`);
  // It says how many requests the traffic has, not that duration × rate gives them (it gave one fewer).
  assert.match(await page.textContent(error), /^Este tráfego tem 2\d{2}\.\d{3} requisições, e as faixas desenham no máximo 3\.000: encurte a duração ou reduza as requisições por segundo\.$/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lab: a window-edge run too short for its attack says the least duration and why; a pasted time is quoted as typed', async () => {
  const page = await openLab();
  const error = `${LAB} .lab-comparison .lab-error`;
  await page.selectOption(`${LAB} .lab-pattern`, 'windowEdge');
  await page.fill(`${LAB} .lab-field--window input`, '3');
  await page.fill(`${LAB} .lab-field--duration input`, '2,5');
  await page.click(`${LAB} .lab-apply`);
  assert.match(await page.textContent(error), /^Duração \(s\): .*2,5.*3,3.* Um ataque na virada da janela precisa de uma janela inteira e de um décimo da seguinte: com w = 3 s, uma duração de pelo menos 3,3 s\.$/);
  assert.equal(await page.getAttribute(`${LAB} .lab-field--duration input`, 'aria-invalid'), 'true');
  // The whole attack at the least duration: the fixed window's double across the edge.
  await page.fill(`${LAB} .lab-field--duration input`, '3,3');
  await page.click(`${LAB} .lab-apply`);
  assert.equal(await page.textContent(error), '');
  assert.match(await page.textContent(`${lane('fixedWindow')} .lab-peak-text`), /^pico na execução inteira: 20 em 3\u00a0s$/);
  // A time too large to be one is quoted as typed, not as the ∞ it reads as.
  await page.selectOption(`${LAB} .lab-pattern`, 'pasted');
  await page.fill(`${LAB} .lab-field--timestamps textarea`, '0,5\n1e400');
  await page.click(`${LAB} .lab-apply`);
  assert.match(await page.textContent(error), /, linha 2: 1e400 /);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lab: Apply and New seed say once what the lanes now show; a refused value says nothing there', async () => {
  const page = await openLab();
  const said = () => page.textContent(`${LAB} .lab-comparison .sr-only[aria-live=polite]`);
  assert.equal(await said(), '', 'nothing said on loading');
  // What the lanes hold now, as the live region should say it.
  const expected = () => page.evaluate(() => {
    const { result } = window.bucketlab.lab.comparison;
    const count = (lane, o) => lane.outcomes.filter((x) => x === o).length;
    return result.lanes.map((lane) => [count(lane, 0), count(lane, 1), count(lane, 2)].join(' '));
  });
  const heard = (text) => [...text.matchAll(/admitidas: (\d+), atrasadas: (\d+), negadas: (\d+)/g)].map((m) => m.slice(1).join(' '));
  await page.fill(`${LAB} .lab-field--limit input`, '12');
  await page.click(`${LAB} .lab-apply`);
  await page.waitForFunction((lab) => document.querySelector(`${lab} .lab-comparison .sr-only[aria-live=polite]`).textContent !== '', LAB);
  let text = await said();
  assert.match(text, /^Faixas refeitas, \d+ requisições em [\d,]+ s: Janela fixa, admitidas: \d+, atrasadas: \d+, negadas: \d+; .*; Balde de tokens, admitidas: /);
  assert.deepEqual(heard(text), await expected());
  // Only random traffic has a seed: on the attack a new one would redraw the same lanes.
  assert.deepEqual(await page.$$eval(`${LAB} :is(.lab-field--seed, .lab-new-seed)`, (els) => els.map((e) => e.checkVisibility())), [false, false]);
  await page.selectOption(`${LAB} .lab-pattern`, 'poisson');
  assert.deepEqual(await page.$$eval(`${LAB} :is(.lab-field--seed, .lab-new-seed)`, (els) => els.map((e) => e.checkVisibility())), [true, true]);
  await page.click(`${LAB} .lab-new-seed`);
  await page.waitForFunction((lab) => document.querySelector(`${lab} .lab-comparison .sr-only[aria-live=polite]`).textContent !== '', LAB);
  text = await said();
  assert.deepEqual(heard(text), await expected(), 'the new seed\'s counts');
  await page.fill(`${LAB} .lab-field--limit input`, '0');
  await page.click(`${LAB} .lab-apply`);
  assert.equal(await said(), '', 'the alert says the refusal; nothing else');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lab: bad input is named and changes nothing; the page language switch re-renders the lab', async () => {
  const page = await openLab();
  await page.fill(`${LAB} .lab-field--limit input`, '0');
  await page.click(`${LAB} .lab-apply`);
  // Named by its label, in the page's language; the field marked invalid, pointing at the message.
  assert.equal(await page.textContent(`${LAB} .lab-comparison .lab-error`), 'Limite: 0 não é permitido; use um número inteiro de 1 a 10000.');
  assert.equal(await page.getAttribute(`${LAB} .lab-field--limit input`, 'aria-invalid'), 'true');
  // Marked to the eye too, in the refusal's colour, as the diagram marks a field.
  const border = (field) => page.$eval(`${LAB} .lab-field--${field} input`, (input) => getComputedStyle(input).borderTopColor);
  assert.notEqual(await border('limit'), await border('window'));
  assert.equal(await border('limit'), await page.$eval(`${LAB} .lab-comparison .lab-error`, (p) => getComputedStyle(p).color));
  assert.equal(await page.getAttribute(`${LAB} .lab-field--limit input`, 'aria-describedby'), await page.getAttribute(`${LAB} .lab-comparison .lab-error`, 'id'));
  assert.match(await page.textContent(`${lane('fixedWindow')} .lab-peak-text`), /20/, 'the previous lanes stay');
  // An emptied field is missing, not the default in disguise.
  await page.fill(`${LAB} .lab-field--limit input`, '');
  await page.click(`${LAB} .lab-apply`);
  assert.equal(await page.textContent(`${LAB} .lab-comparison .lab-error`), 'Limite: o campo está vazio; use um número inteiro de 1 a 10000.');
  assert.equal(await page.inputValue(`${LAB} .lab-field--limit input`), '', 'the field keeps what was typed');

  await page.selectOption(`${LAB} .lab-pattern`, 'pasted');
  // The example list is written as the page writes a decimal, as its own hint asks ("como 0,25").
  assert.equal(await page.inputValue(`${LAB} textarea`), '0,2\n0,4\n0,45\n0,5\n0,55\n1,5');
  await page.fill(`${LAB} .lab-field--limit input`, '10');
  await page.fill(`${LAB} textarea`, '0.5\n0.2');
  await page.click(`${LAB} .lab-apply`);
  assert.equal(await page.textContent(`${LAB} .lab-comparison .lab-error`), 'Horários colados, linha 2: 0,2 vem antes do horário anterior, 0,5; liste os horários em ordem crescente.');
  assert.equal(await page.getAttribute(`${LAB} textarea`, 'aria-invalid'), 'true');
  await page.fill(`${LAB} textarea`, '0.5\nabc');
  await page.click(`${LAB} .lab-apply`);
  assert.equal(await page.textContent(`${LAB} .lab-comparison .lab-error`), 'Horários colados, linha 2: “abc” não é um número; escreva um horário em segundos por linha, como 0,25.');
  // 1.000 is a thousand to a Brazilian reader, and 1,000 could be either: refused as in every
  // other field, not read as 1 s.
  await page.fill(`${LAB} textarea`, '0,5\n\n1.000');
  await page.click(`${LAB} .lab-apply`);
  assert.equal(await page.textContent(`${LAB} .lab-comparison .lab-error`), 'Horários colados, linha 3: em “1.000” o ponto pode separar milhares ou decimais; escreva 1000 se for o número inteiro, ou 1 se for o decimal.');
  assert.equal(await page.getAttribute(`${LAB} textarea`, 'aria-invalid'), 'true');
  await page.fill(`${LAB} textarea`, '1,250');
  await page.click(`${LAB} .lab-apply`);
  assert.equal(await page.textContent(`${LAB} .lab-comparison .lab-error`), 'Horários colados, linha 1: em “1,250” a vírgula pode separar milhares ou decimais; escreva 1250 se for o número inteiro, ou 1,25 se for o decimal.');
  await page.fill(`${LAB} textarea`, '0.5\n0.2');

  await page.evaluate(() => {
    document.documentElement.lang = 'en';
    document.dispatchEvent(new CustomEvent('bucketlab:langchange', { detail: { lang: 'en' } }));
  });
  assert.equal(await page.textContent(`${LAB} .lab-comparison h3`), 'Lab: the same traffic, seven algorithms');
  assert.match(await page.textContent(`${lane('fixedWindow')} .lab-peak-text`), /^whole-run peak: 20 in 1\u00a0s$/);
  assert.equal(await page.textContent(`${LAB} .lab-score`), '0 of 8 right · 0 answered');
  assert.equal(await page.evaluate(() => window.bucketlab.lab.lang), 'en');
  await page.context().close();
});

test('lab: on a phone the form has two columns, and one when the reader\'s text is twice as large, so no label breaks in a word', async () => {
  const page = await openLab({ viewport: { width: 375, height: 800 } });
  const columns = () => page.$$eval(`${LAB} .lab-comparison .lab-field:not([hidden])`, (fields) => new Set(fields.map((f) => Math.round(f.getBoundingClientRect().left))).size);
  assert.equal(await columns(), 2);
  await page.evaluate(() => { document.documentElement.style.fontSize = '32px'; });
  assert.equal(await columns(), 1);
  // Every label on as many lines as it has words at most: none broken inside a word.
  const broken = await page.$$eval(`${LAB} .lab-comparison .lab-field:not([hidden]) label`, (labels) => labels.filter((label) => {
    const lines = label.getClientRects().length > 1 ? label.getClientRects().length : Math.round(label.getBoundingClientRect().height / parseFloat(getComputedStyle(label).lineHeight));
    return lines > label.textContent.trim().split(/\s+/).length;
  }).map((label) => label.textContent));
  assert.deepEqual(broken, []);
  await page.context().close();
});

test('lab: at 375 px the lab fits the screen, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await openLab({ viewport: { width: 375, height: 800 }, colorScheme });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${colorScheme}: page ${overflow}px wider than the screen`);
    await page.context().close();
  }
});

// The attack on the window edge, 20 requests in 0.2 s: over the whole 2.5 s run a phone drew them
// in some 25 px, one blob; there the busiest second is drawn, and its requests stand apart.
test('lab: at 375 px the lanes show the busiest second, the burst spread out; at 1280 px the whole run', async () => {
  for (const width of [375, 1280]) {
    const page = await openLab({ viewport: { width, height: 800 } });
    const spread = await page.$$eval(`${lane('fixedWindow')} .lab-ok`, (marks) => {
      const xs = marks.map((m) => m.getBoundingClientRect().left);
      return Math.max(...xs) - Math.min(...xs);
    });
    const ticks = await page.$$eval(`${LAB} .lab-comparison .lab-axis text`, (texts) => texts.map((t) => t.textContent));
    // Every admitted request of the window-edge attack is on the strip, drawn as done: the run
    // is shown whole on the stretch chosen, not on its last second (the playhead's, at the end).
    const onStrip = await page.$eval(lane('fixedWindow'), (row) => {
      const strip = row.querySelector('.lab-strip').getBoundingClientRect();
      return [...row.querySelectorAll('.lab-ok')].filter((m) => {
        const box = m.getBoundingClientRect();
        return !m.classList.contains('lab-future') && box.left >= strip.left - 0.5 && box.right <= strip.right + 0.5;
      }).length;
    });
    assert.equal(onStrip, 20, `${width} px: admitted requests drawn on the strip`);
    if (width === 375) {
      assert.ok(spread > 45, `the 20 admitted requests spread over ${spread} px`);
      assert.notEqual(ticks[0], '0', `the axis starts at the busy second: ${ticks}`);
    } else {
      assert.equal(ticks[0], '0', 'the whole run from 0');
      assert.match(ticks.at(-1), /^2[.,]5$/);
    }
    await page.context().close();
  }
});

// The busiest second alone, said nowhere, left a phone's reader looking at 0.8–2.05 s of a run
// whose counts said "up to 2.5 s", the playhead off the strip at its end: the part shown is said
// under the axis, and the stretch follows the playhead.
test('lab: at 375 px the lanes say which part of the run they show and keep the playhead on the strip, its ticks inside; at 1280 px the whole run', async () => {
  for (const width of [375, 1280]) {
    const page = await openLab({ viewport: { width, height: 800 } });
    await page.evaluate(() => window.bucketlab.lab.comparison.pause());
    const part = `${LAB} .lab-comparison .lab-axis-part`;
    const shown = () => page.evaluate((lab) => {
      const inside = (inner, outer) => inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5;
      const axis = document.querySelector(`${lab} .lab-comparison .lab-axis`);
      return {
        heads: [...document.querySelectorAll(`${lab} .lab-comparison .lab-row`)].every((row) => inside(row.querySelector('.lab-head').getBoundingClientRect(), row.querySelector('.lab-strip').getBoundingClientRect())),
        ticks: [...axis.querySelectorAll('text')].every((text) => inside(text.getBoundingClientRect(), axis.getBoundingClientRect())),
        part: document.querySelector(`${lab} .lab-comparison .lab-axis-part`)?.textContent ?? null,
      };
    }, LAB);
    for (const time of [0, 1.25, 2.5]) {
      await page.evaluate((t) => window.bucketlab.lab.comparison.seek(t), time);
      const { heads, ticks, part: said } = await shown();
      assert.ok(heads, `${width} px, ${time} s: the playhead on every strip`);
      assert.ok(ticks, `${width} px, ${time} s: every tick's number inside the axis`);
      if (width === 1280) assert.equal(said, null, 'the whole run: nothing to say');
      else assert.match(said, /^mostrando de [\d,]+ a [\d,]+ s da execução de 2,5 s; a parte visível acompanha o cursor$/);
      if (width === 375 && time === 0) assert.match(said, /^mostrando de 0 a 1,2 s/);
      if (width === 375 && time === 2.5) assert.match(said, /^mostrando de 1,3 a 2,5 s/);
    }
    if (width === 375) assert.equal(await page.locator(part).isVisible(), true);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('lab: works under the strict CSP the page is moving to, with no violations', async () => {
  const page = await openPage(env.browser);
  await page.route(env.server.url, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': CSP } });
  });
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
  await page.goto(env.server.url);
  await loadPart(page, LAB, 'lab-ready');
  await page.evaluate(() => window.bucketlab.lab.experiments.run('burst'));
  await page.click(`${LAB} [data-question="memory"] input[value="slidingLog"]`);
  await page.click(`${LAB} [data-question="memory"] .quiz-check`);
  const violations = await page.evaluate(() => window.violations.filter((v) => /lab/.test(v)));
  assert.deepEqual(violations, []);
  // The policy is really in force: an inline style attribute is reported.
  await page.evaluate(() => document.body.append(Object.assign(document.createElement('div'), { id: 'csp-probe' })));
  await page.evaluate(() => document.getElementById('csp-probe').setAttribute('style', 'color: red'));
  await page.waitForFunction(() => window.violations.some((v) => v.startsWith('style-src')));
  await page.context().close();
});

test('lab: keyboard focus stays in the quiz: Check moves it to the verdict, New questions to the new first question', async () => {
  const page = await openPage(env.browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${env.server.url}en.html`);
  await loadPart(page, LAB, 'lab-ready');
  const question = `${LAB} [data-question="memory"]`;
  await page.focus(`${question} input[type=radio]`);
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'quiz-check');
  await page.keyboard.press('Enter');
  // The button disables itself once answered: focus goes to the verdict it wrote, not to <body>.
  assert.equal(await page.evaluate(() => document.activeElement.className), 'quiz-verdict');
  assert.ok(await page.evaluate((q) => document.querySelector(q).contains(document.activeElement), question));
  assert.match(await page.evaluate(() => document.activeElement.textContent), /^(Right|Not this time)/);
  // Read once, as the focused element: not a live region too, which would say it a second time.
  assert.deepEqual(await page.evaluate(() => [document.activeElement.getAttribute('role'), document.activeElement.getAttribute('aria-live')]), [null, null]);
  // Tab goes on from there, to the next question.
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate((q) => document.querySelector(q).nextElementSibling.contains(document.activeElement), question));

  await page.focus(`${LAB} .lab-new-quiz`);
  await page.keyboard.press('Enter');
  await page.waitForFunction((l) => document.querySelector(`${l} .lab-score`).textContent.startsWith('0 of'), LAB);
  // The list is built again: focus lands on the first question's first choice.
  const focused = await page.evaluate((l) => {
    const first = document.querySelector(`${l} .quiz-question input[type=radio]`);
    return { first: document.activeElement === first, tag: document.activeElement.tagName };
  }, LAB);
  assert.deepEqual(focused, { first: true, tag: 'INPUT' });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// A narrow window or a 200 % zoom: the lab's text wraps in its column instead of being cut off.
for (const [width, height, deviceScaleFactor] of [[640, 800, 1], [700, 800, 1], [640, 400, 2]]) {
  test(`lab: at ${width} × ${height} px (×${deviceScaleFactor}) nothing in the lab is wider than its part`, async () => {
    const page = await openPage(env.browser, { viewport: { width, height }, deviceScaleFactor });
    await page.goto(`${env.server.url}en.html`);
    await loadPart(page, LAB, 'lab-ready');
    const over = await page.$$eval(`${LAB} .lab-part`, (parts) => parts.flatMap((part) => {
      const box = part.getBoundingClientRect();
      return [...part.querySelectorAll('*')].flatMap((e) => {
        const b = e.getBoundingClientRect();
        if (!b.width || e.closest('.table-wrap')) return [];
        return b.right > box.right + 0.5 || b.left < box.left - 0.5
          ? [`${part.className} > ${e.tagName.toLowerCase()}.${e.getAttribute('class') ?? ''}: ${Math.round(b.left)}–${Math.round(b.right)} in ${Math.round(box.left)}–${Math.round(box.right)}`]
          : [];
      });
    }));
    assert.deepEqual(over.slice(0, 10), []);
    await page.context().close();
  });
}

// On a phone the lanes were drawn at the page's scale: at 375 px a 600-unit strip was 26 px tall and
// its marks 5 px wide. Below 600 px the strip's units are pixels, so each lane stays readable; the
// name and counts sit above it, never on its marks. At 1280 px nothing changed.
test('lab: at 375 and 320 px every lane is at least 44 px tall with full-size marks, its counts above it, each whole; at 1280 px as before', async () => {
  for (const width of [375, 320, 1280]) {
    const page = await openLab({ viewport: { width, height: 800 } });
    await page.evaluate(() => window.bucketlab.lab.comparison.pause());
    const measure = () => page.$$eval(`${LAB} .lab-comparison .lab-row`, (rows) => rows.map((row) => {
      /** The counts ("admitidas: 20", …) whose text lies on more than one line. */
      const splitCounts = (node) => {
        const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        const at = []; // [text node, offset] of each character, and one past the end
        for (let text = walker.nextNode(); text; text = walker.nextNode()) {
          for (let i = 0; i < text.length; i++) at.push([text, i]);
        }
        const last = at.at(-1);
        at.push([last[0], last[1] + 1]);
        let start = 0;
        return node.textContent.split(' · ').filter((count) => {
          const range = document.createRange();
          range.setStart(...at[start]);
          range.setEnd(...at[start + count.length]);
          start += count.length + 3;
          const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top));
          return new Set(tops).size > 1;
        });
      };
      const strip = row.querySelector('.lab-strip').getBoundingClientRect();
      const head = row.querySelector('.lab-row-head').getBoundingClientRect();
      const counts = row.querySelector('.lab-counts');
      const marks = [...row.querySelectorAll('.lab-ok:not(.lab-future), .lab-deny:not(.lab-future)')]
        .map((m) => m.getBoundingClientRect());
      return {
        lane: row.dataset.lane,
        height: strip.height,
        width: strip.width,
        units: row.querySelector('.lab-strip').viewBox.baseVal.width,
        headBottom: head.bottom,
        stripTop: strip.top,
        counts: counts.textContent,
        countsShown: counts.getBoundingClientRect().height > 0,
        // "negadas: 0" on one line: at 320 px the 0 fell alone onto the next.
        countsSplit: splitCounts(counts),
        smallestMark: Math.min(...marks.map((m) => Math.min(m.width, m.height))),
        marksTop: Math.min(...marks.map((m) => m.top)),
      };
    }));
    // No wait: the lanes are drawn at their width from the start (a test measuring at once saw 600-unit strips).
    const lanes = await measure();
    assert.equal(lanes.length, 7);
    for (const l of lanes) {
      const where = `${width} px, ${l.lane}: ${JSON.stringify(l)}`;
      assert.ok(l.countsShown && /\d/.test(l.counts), `counts shown, ${where}`);
      assert.deepEqual(l.countsSplit, [], `no count broken across lines, ${where}`);
      assert.ok(l.headBottom <= l.stripTop + 0.5, `name and counts above the strip, not on it, ${where}`);
      assert.ok(l.marksTop >= l.stripTop, `marks inside the strip, ${where}`);
      if (width < 600) {
        assert.ok(l.height >= 44, `lane at least 44 px tall, ${where}`);
        assert.ok(l.smallestMark >= 8, `admitted and refused marks at least 8 px, ${where}`);
      } else {
        assert.equal(l.units, 600, `600 units wide as before, ${where}`);
        assert.ok(Math.abs(l.height - (l.width * 46) / 600) < 0.5, `the strip keeps its 600 × 46 shape, ${where}`);
      }
    }
    await page.context().close();
  }
});

test('lab: the quota line gives a slow quota its rate (1 a day is not 0/s) and says a bucket can let twice the limit through in a window', async () => {
  const page = await openLab();
  await page.fill(`${LAB} .lab-field--limit input`, '1');
  await page.fill(`${LAB} .lab-field--window input`, '86400');
  // Long enough for the attack on the window's edge, the pattern the lab opens with.
  await page.fill(`${LAB} .lab-field--duration input`, '100000');
  await page.click(`${LAB} .lab-apply`);
  await page.waitForFunction((l) => document.querySelector(`${l} .lab-quota`).textContent.startsWith('1 por 86.400 s'), LAB);
  assert.equal(await page.textContent(`${LAB} .lab-quota`),
    '1 por 86.400 s: baldes com B = 1 e r = 0,0000116/s, que podem deixar passar até 2 numa janela depois de um trecho tranquilo (o balde cheio, depois o reabastecimento)');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lab: the lanes\' settings and "Several servers"\' bursts and mode go with the language link, shown and run as they were', async () => {
  const page = await openLab();
  await page.selectOption(`${LAB} .lab-pattern`, 'pasted');
  await page.fill(`${LAB} .lab-field--timestamps textarea`, '0,95\n0,96\n1,01\n1,02');
  await page.fill(`${LAB} .lab-field--limit input`, '2');
  await page.fill(`${LAB} .lab-field--duration input`, '3');
  await page.click(`${LAB} .lab-apply`);
  const lanes = () => page.evaluate(() => window.bucketlab.lab.comparison.result.lanes.map((l) => [l.algorithm, l.admitted, l.delayed, l.denied]));
  const before = await lanes();
  const servers = async () => page.evaluate(async () => {
    const handle = await window.bucketlab.loadServers();
    return { ...handle.saved, admitted: handle.admitted };
  });
  await servers();
  await page.evaluate(() => { const s = window.bucketlab.servers; s.setMode('shared'); s.burst(); s.step(); s.burst(); });
  const ran = await servers();
  assert.equal(ran.actions.length, 3);
  await page.click('.lang-switch a[data-lang=en]');
  await page.waitForURL(/en\.html/);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await loadPart(page, LAB, 'lab-ready');
  assert.deepEqual(await lanes(), before);
  assert.deepEqual(await page.evaluate((lab) => ['.lab-pattern', '.lab-field--timestamps textarea', '.lab-field--limit input', '.lab-field--duration input']
    .map((field) => document.querySelector(`${lab} ${field}`).value), LAB), ['pasted', '0.95\n0.96\n1.01\n1.02', '2', '3'], 'the times written the English way');
  assert.equal(await page.textContent(`${LAB} .lab-comparison .lab-error`), '');
  assert.deepEqual(await servers(), ran);
  assert.equal(await page.isChecked('#servers-widget input[value="shared"]'), true);
  // An English 1.250 is 1.25 s: it reaches the Portuguese page as that time, not as text it would
  // read as a thousand.
  await page.fill(`${LAB} .lab-field--timestamps textarea`, '0.5\n1.250');
  await page.click(`${LAB} .lab-apply`);
  await page.click('.lang-switch a[data-lang=pt-BR]');
  await page.waitForURL(/index\.html|\/$/);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await loadPart(page, LAB, 'lab-ready');
  assert.equal(await page.inputValue(`${LAB} .lab-field--timestamps textarea`), '0,5\n1,25');
  assert.equal(await page.textContent(`${LAB} .lab-comparison .lab-error`), '');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lab: the quick check\'s answers so far go with the language link, checked as they were; a later set is not carried', async () => {
  const page = await openLab();
  const given = await answerSome(page, [0, 1, 2], 1);
  await page.click('.lang-switch a[data-lang=en]');
  await page.waitForURL(/en\.html/);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await loadPart(page, LAB, 'lab-ready');
  const shown = { ...await quizShown(page), ...await page.evaluate((lab) => ({
    verdicts: [...document.querySelectorAll(`${lab} .quiz-verdict`)].filter((p) => p.textContent).length,
    intro: document.querySelector(`${lab} .lab-quiz-body > p`).textContent,
  }), LAB) };
  assert.deepEqual(shown.checked, given);
  assert.equal(shown.score.answered, 3);
  assert.equal(shown.verdicts, 3, 'each with its verdict and why, in English');
  assert.match(shown.intro, /^[A-Z][a-z]/);
  assert.doesNotMatch(shown.intro, /ã|ç/);
  // "New questions": practice; the first set's answers stay behind.
  await page.click(`${LAB} .lab-new-quiz`);
  assert.deepEqual(await page.evaluate(() => window.bucketlab.lab.quiz.answers), {});
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lab: "Copy a link to these lanes" copies a link that opens the lab with the same lanes, in the other language too; a pasted list goes as its times', async () => {
  const page = await openPage(env.browser, { permissions: ['clipboard-read', 'clipboard-write'] });
  await page.goto(new URL('en.html?capacity=7', env.server.url).href);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await loadPart(page, LAB, 'lab-ready');
  await page.selectOption(`${LAB} .lab-pattern`, 'burst');
  await page.fill(`${LAB} .lab-field--size input`, '6');
  await page.fill(`${LAB} .lab-field--every input`, '1.5');
  await page.fill(`${LAB} .lab-field--limit input`, '4');
  await page.fill(`${LAB} .lab-field--duration input`, '4.5');
  await page.click(`${LAB} .lab-apply`);
  // A change not applied is not in the link: it holds the lanes shown.
  await page.fill(`${LAB} .lab-field--limit input`, '9');
  await page.click(`${LAB} .lab-copy-link`);
  await page.waitForSelector(`${LAB} .lab-copy-link.is-copied`);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const url = new URL(copied);
  // The lesson's own setting stays; the lanes' settings follow the traffic, numbers with a point.
  assert.equal(url.search, '?capacity=7');
  assert.equal(url.hash, '#lang=en&lab=burst;size=6;every=1.5;limit=4;window=1;duration=4.5');
  const lanes = (p) => p.evaluate(() => window.bucketlab.lab.comparison.result.lanes.map((l) => [l.algorithm, l.admitted, l.delayed, l.denied]));
  const shown = await lanes(page);
  // Opened elsewhere (in Portuguese): the page goes to the lab, which runs the same lanes.
  const other = await openPage(env.browser);
  const pt = new URL(`index.html${url.search}#lab=burst;size=6;every=1.5;limit=4;window=1;duration=4.5`, env.server.url).href;
  await other.goto(pt);
  await other.waitForSelector(`${LAB}.lab-ready`);
  assert.deepEqual(await lanes(other), shown);
  assert.deepEqual(await other.evaluate((lab) => ['.lab-pattern', '.lab-field--size input', '.lab-field--every input', '.lab-field--limit input', '.lab-field--duration input']
    .map((field) => document.querySelector(`${lab} ${field}`).value), LAB), ['burst', '6', '1,5', '4', '4,5'], 'shown the Portuguese way');
  assert.equal(await other.textContent(`${LAB} .lab-comparison .lab-error`), '');
  // The page goes to the lab (and holds it there while the sections above lay out).
  await other.waitForFunction((lab) => {
    const { top } = document.querySelector(lab).getBoundingClientRect();
    return top >= 0 && top < innerHeight;
  }, LAB);
  // The address keeps the link while the lab shows its lanes, whatever else the reader changes
  // (a reload, or a phone that dropped the tab, opens them again); lanes of their own end it.
  await other.evaluate(() => window.bucketlab.diagram.configure(8, 1));
  await other.waitForFunction(() => location.hash.includes('b=8'));
  assert.match(await other.evaluate(() => location.hash), /&lab=burst;size=6;every=1\.5;limit=4;window=1;duration=4\.5$/);
  await other.fill(`${LAB} .lab-field--limit input`, '5');
  await other.click(`${LAB} .lab-apply`);
  // Run, they take the link out of the address there and then: a reload brings back the
  // reader's settings, not the link's lanes over their own.
  await other.waitForFunction(() => !location.hash.includes('lab='));
  assert.match(await other.evaluate(() => location.hash), /^#b=8&r=1&c=1&lang=pt-BR/);
  assert.deepEqual(other.problems, []);
  await other.context().close();
  // A pasted list goes as the times it was read as.
  await page.selectOption(`${LAB} .lab-pattern`, 'pasted');
  await page.fill(`${LAB} .lab-field--timestamps textarea`, '0.25\n1\n1.125');
  await page.fill(`${LAB} .lab-field--limit input`, '2');
  await page.click(`${LAB} .lab-apply`);
  await page.click(`${LAB} .lab-copy-link`);
  await page.waitForFunction(async () => (await navigator.clipboard.readText()).includes('pasted'));
  assert.equal(new URL(await page.evaluate(() => navigator.clipboard.readText())).hash, '#lang=en&lab=pasted;timestamps=0.25,1,1.125;limit=2;window=1;duration=4.5');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lab: a lab link of the wrong shape is said in the lab, naming what it gave and what is allowed; a value the core refuses is shown in its field', async () => {
  const open = async (hash) => {
    const page = await openPage(env.browser);
    await page.goto(new URL(`en.html#${hash}`, env.server.url).href);
    await page.waitForSelector(`${LAB}.lab-ready`);
    return page;
  };
  const cases = [
    ['lab=bursty;size=2', 'This link\'s lanes were not run: “bursty” is not one of the lab\'s traffic patterns, which are windowEdge, steady, burst, poisson, ramp, pasted.'],
    ['lab=steady;size=2', 'This link\'s lanes were not run: “size” is not a setting of the steady pattern, whose settings are rate, limit, window, duration.'],
    ['lab=steady;rate=2;rate=3', 'This link\'s lanes were not run: rate is given twice; give it once.'],
    ['lab=steady;rate=0x10', 'This link\'s lanes were not run: rate = “0x10” is not a number; write one with a point, such as 2.5.'],
    ['lab=pasted;timestamps=0.5,,1', 'This link\'s lanes were not run: timestamps = “” is not a number; write one with a point, such as 2.5.'],
    [`lab=pasted;timestamps=${Array.from({ length: 700 }, (_, i) => i / 100).join(',')}`, /^This link's lanes were not run: it has 3,\d{3} characters, and a lab link holds at most 2,000\.$/],
  ];
  for (const [hash, said] of cases) {
    const page = await open(hash);
    const error = await page.textContent(`${LAB} .lab-comparison .lab-error`);
    if (typeof said === 'string') assert.equal(error, said, hash);
    else assert.match(error, said, hash.slice(0, 40));
    // The lanes stay the lab's own.
    assert.equal(await page.inputValue(`${LAB} .lab-pattern`), 'windowEdge', hash.slice(0, 40));
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
  // A value of the right shape that the core refuses: shown in its field, with the rule.
  const page = await open('lab=steady;rate=5;limit=0');
  assert.match(await page.textContent(`${LAB} .lab-comparison .lab-error`), /^Limit: 0 is not allowed/);
  assert.equal(await page.inputValue(`${LAB} .lab-field--limit input`), '0');
  assert.equal(await page.getAttribute(`${LAB} .lab-field--limit input`, 'aria-invalid'), 'true');
  // A link named twice is in the page's notice, as any other.
  await page.goto(new URL('en.html#lab=steady&lab=burst', env.server.url).href);
  await page.waitForSelector('#page-notice:not([hidden])');
  assert.equal(await page.textContent('#page-notice'), 'A value in the link was ignored: lab = “burst”: given twice; the first one counts (expected: a link copied with the algorithm lab\'s “Copy a link to these lanes”).');
  await page.context().close();
});

test('lab: "Designing limits"\' link to the limit keys demo lands on it, in both languages, the lab loading on the way when it has not yet', async () => {
  for (const path of ['en.html', '']) {
    const page = await openPage(env.browser);
    await page.goto(new URL(path, env.server.url).href);
    await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
    const link = page.locator('a[href="#chaves-do-limite"]');
    assert.equal(await link.count(), 1);
    await link.scrollIntoViewIfNeeded();
    await link.click();
    await page.waitForFunction(() => {
      const demo = document.querySelector('#chaves-do-limite.lab-part');
      if (!demo) return false;
      const { top } = demo.getBoundingClientRect();
      return top >= -4 && top < innerHeight / 3;
    });
    assert.equal(await page.evaluate(() => document.getElementById('chaves-do-limite').closest('#algorithm-lab') !== null), true);
    // The address it leaves, opened afresh (shared, bookmarked), lands there too.
    const opened = await openPage(env.browser);
    await opened.goto(new URL(`${path}#chaves-do-limite`, env.server.url).href);
    await opened.waitForFunction(() => {
      const demo = document.querySelector('#chaves-do-limite.lab-part');
      if (!demo) return false;
      const { top } = demo.getBoundingClientRect();
      return top >= -4 && top < innerHeight / 3;
    });
    assert.deepEqual([page.problems, opened.problems], [[], []]);
    await page.context().close();
    await opened.context().close();
  }
});

test('on a phone, what a tap changes comes into view: a Try this set-up\'s lanes, the quick check\'s playback, a preset\'s verdict, an error under a form', async () => {
  const inView = (page, selector) => page.evaluate((selector) => {
    const { top, bottom } = document.querySelector(selector).getBoundingClientRect();
    return top >= 0 && bottom <= innerHeight + 1;
  }, selector);
  const settled = (page) => page.evaluate(() => new Promise((resolve) => {
    let last = -1;
    const check = () => (scrollY === last ? resolve() : (last = scrollY, setTimeout(check, 150)));
    check();
  }));
  for (const viewport of [{ width: 375, height: 812 }, { width: 844, height: 390 }]) {
    const page = await openLab({ viewport, isMobile: true, hasTouch: true, reducedMotion: 'reduce' });
    const where = `${viewport.width}×${viewport.height}`;
    await page.locator(`${LAB} [data-experiment="windowEdge"] button`).tap();
    await settled(page);
    assert.ok(await inView(page, `${LAB} .lab-comparison .lab-row`), `${where}: the first lane is in view`);
    // A refused Apply: the error under the form shows.
    await page.fill(`${LAB} .lab-field--limit input`, '0');
    await page.locator(`${LAB} .lab-apply`).tap();
    await settled(page);
    assert.ok(await inView(page, `${LAB} .lab-comparison .lab-error`), `${where}: the error is in view`);
    // The quick check's first question, checked: its playback is in view under the verdict.
    await page.locator(`${LAB} .quiz-question`).first().scrollIntoViewIfNeeded();
    await page.locator(`${LAB} .quiz-question`).first().locator('input').first().check();
    await page.locator(`${LAB} .quiz-question`).first().locator('button').first().tap();
    await settled(page);
    assert.ok(await page.evaluate((lab) => {
      const playback = document.querySelector(`${lab} .quiz-question .lab-playback`).getBoundingClientRect();
      return playback.height > 0 && playback.top < innerHeight && playback.top >= 0;
    }, LAB), `${where}: the playback starts in view`);
    // The floods' and the clients' presets: their verdicts come into view.
    await page.evaluate(() => Promise.all([window.bucketlab.loadDefense(), window.bucketlab.loadClients()]));
    for (const [mount, preset, verdict] of [['#flood-lab', 'flood', '.df-takeaway'], ['#clients-lab', 'jitter', '.cl-takeaway']]) {
      const button = page.locator(`${mount} [data-preset="${preset}"]`);
      await button.evaluate((b) => b.scrollIntoView({ block: 'start' }));
      await button.tap();
      await settled(page);
      assert.ok(await page.evaluate((selector) => {
        const { top } = document.querySelector(selector).getBoundingClientRect();
        return top >= 0 && top < innerHeight * 0.75;
      }, `${mount} ${verdict}`), `${where}: ${mount}'s verdict is in view`);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('lab, clients, floods: a console setup() throws the form\'s refusal, and refuses a field the form does not have, naming the allowed ones', async () => {
  const page = await openLab();
  await page.evaluate(() => Promise.all([window.bucketlab.loadClients(), window.bucketlab.loadDefense()]));
  // As typed in the console (the page's CSP refuses a Function built from text; this is not the page's).
  const thrown = (code) => page.evaluate(`(() => { try { ${code}; return null; } catch (error) { return \`\${error.constructor.name}: \${error.message}\`; } })()`);
  const lanes = () => page.evaluate(() => JSON.stringify(window.bucketlab.lab.comparison.settings));
  const before = await lanes();
  assert.equal(await thrown('bucketlab.lab.comparison.setup({ limit: 0 })'), 'Error: limit must be a whole number from 1 to 10000, got 0');
  assert.match(await thrown('bucketlab.lab.comparison.setup({ limt: 5 })'), /^Error: changes has an unknown field "limt"; allowed fields: pattern, rate, size, every, from, to, timestamps, limit, window, duration, seed$/);
  assert.equal(await thrown('bucketlab.lab.comparison.setup({ pattern: "bogus" })'), 'Error: pattern must be one of windowEdge, steady, burst, poisson, ramp, pasted, got "bogus" (a string)');
  assert.match(await thrown('bucketlab.lab.comparison.setup("x")'), /^Error: changes must be an object with any of the fields pattern, .*, got "x" \(a string\)$/);
  assert.equal(await lanes(), before, 'nothing refused changed the lanes');
  assert.equal(await thrown('bucketlab.lab.comparison.setup({ limit: 4 })'), null);
  assert.match(await thrown('bucketlab.clients.setup({ clints: 5 })'), /^Error: changes has an unknown field "clints"; allowed fields: clients, /);
  assert.match(await thrown('bucketlab.clients.setup({ clients: 0 })'), /^Error: clients must be/);
  assert.match(await thrown('bucketlab.defense.setup({ attackrs: 5 })'), /^Error: changes has an unknown field "attackrs"; allowed fields: attackers, attackRate, edgeShare, layers$/);
  assert.equal(await thrown('bucketlab.defense.setup({ layers: { edg: true } })'), 'Error: changes.layers has an unknown field "edg"; allowed fields: edge, perIp, global');
  assert.match(await thrown('bucketlab.defense.setup({ attackers: 0 })'), /^Error: attackers must be/);
  assert.equal(await page.evaluate(() => window.bucketlab.defense.state.attackrs), undefined);
  assert.equal(await thrown('bucketlab.defense.setup({ attackers: 10 })'), null);
  // The servers' calls take no argument: a size or a length given is refused, not ignored.
  await page.evaluate(() => window.bucketlab.loadServers());
  const actions = () => page.evaluate(() => window.bucketlab.servers.saved.actions.length);
  assert.match(await thrown('bucketlab.servers.burst(5)'), /^Error: burst\(\) takes no argument \(each burst is \d+ requests, the mount's data-burst\), got 5$/);
  assert.match(await thrown('bucketlab.servers.step("2")'), /^Error: step\(\) takes no argument \(each step is [\d.]+ s, the mount's data-step\), got "2" \(a string\)$/);
  assert.equal(await thrown('bucketlab.servers.reset(true)'), 'Error: reset() takes no argument, got true (a boolean)');
  assert.equal(await actions(), 0, 'nothing refused was taken');
  assert.equal(await thrown('bucketlab.servers.burst(); bucketlab.servers.step()'), null);
  assert.equal(await actions(), 2);
  await page.context().close();
});
