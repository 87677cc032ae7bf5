// The defense sections on both lesson pages: the flood demo's numbers equal the native runs of
// tests/fixtures/flood-runs.txt at 1, 100 and 10 000 IPs under each layer set, and its slider says
// "1 IP", "100 IPs"; switching layers moves them the way the text says; a bad setting is named;
// the keys demo's endpoint options; the plans policy in the Config tab (a bad plan named with its
// line); the recap's checks; axe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { useBrowser } from './harness.mjs';
import { loadPart, openLesson, openMounted, pressPaced } from './lesson-helpers.mjs';
import { readFloodFixture, LAYER_SETS } from '../flood-fixture.mjs';

const env = useBrowser();
const MOUNT = '#flood-lab';
const PAGES = [['', 'pt-BR'], ['en.html', 'en']];
const STOPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
const fixture = readFloodFixture();
/** What the slider says at the fixture's stops: the singular at 1 (it said "1 IPs"). */
const IPS_TEXT = { 'pt-BR': { 1: '1 IP', 100: '100 IPs', 10000: '10.000 IPs' }, en: { 1: '1 IP', 100: '100 IPs', 10000: '10,000 IPs' } };

/** Opens the page (`path`), scrolls to the flood demo and waits until it is mounted. */
const openFlood = (path = '', options = {}) => openMounted(env, path, MOUNT, 'df-ready', options);

/** Moves the slider to `ips` (one of its stops) and sets the layers by clicking their boxes. */
async function choose(page, ips, layers) {
  await page.locator(`${MOUNT} .df-slider`).evaluate((input, stop) => {
    input.value = String(stop);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, STOPS.indexOf(ips));
  for (const [layer, on] of Object.entries(layers)) {
    await page.locator(`${MOUNT} input[data-layer="${layer}"]`).setChecked(on);
  }
  await page.waitForFunction(({ ips, layers }) => {
    const s = window.bucketlab.defense.state;
    return s.attackers === ips && Object.entries(layers).every(([k, v]) => s.layers[k] === v);
  }, { ips, layers });
}

/** The cards: data-value and text by metric. */
const cards = (page) => page.$$eval(`${MOUNT} .df-cards dd`, (all) => Object.fromEntries(all.map((dd) => [dd.dataset.metric, { value: dd.dataset.value, text: dd.textContent }])));

for (const [path, lang] of PAGES) {
  test(`defense: ${lang}: at 1, 100 and 10 000 IPs the numbers on screen equal the native runs`, async () => {
    const page = await openFlood(path);
    const number = (n) => new Intl.NumberFormat(lang, { maximumFractionDigits: 3 }).format(n);
    for (const [key, expected] of fixture) {
      const [ips, set] = key.split(' ');
      await choose(page, Number(ips), LAYER_SETS[set]);
      assert.equal(await page.textContent(`${MOUNT} .df-slider-value`), IPS_TEXT[lang][ips], `${key}: the slider's value`);
      assert.equal(await page.getAttribute(`${MOUNT} .df-slider`, 'aria-valuetext'), IPS_TEXT[lang][ips], `${key}: the slider's aria-valuetext`);
      const shown = await cards(page);
      const s = expected.summary;
      const want = {
        peak: s.originPeak, mean: Math.round(s.originMean), over: s.secondsOverCapacity,
        ipsLimited: s.attackersLimited, usersLimited: s.usersLimited, edge: s.edgeDropped, global: s.globalLimited,
      };
      for (const [metric, value] of Object.entries(want)) {
        assert.equal(Number(shown[metric].value), value, `${key}: ${metric}`);
        assert.ok(shown[metric].text.includes(number(value)), `${key}: "${shown[metric].text}" shows ${number(value)}`);
      }
      assert.ok(shown.userShares.text.includes(number(Math.round(s.userLimitedShare * 1000) / 10)), `${key}: ${shown.userShares.text}`);
      const run = await page.evaluate(() => window.bucketlab.defense.result);
      assert.deepEqual(Object.values(run.seconds.origin), expected.origin, `${key}: origin per second`);
      assert.equal(await page.locator(`${MOUNT} .df-svg [data-second]`).count(), expected.origin.length);
      assert.match(await page.textContent(`${MOUNT} .df-svg desc`), new RegExp(number(s.originPeak).replace('.', '\\.')));
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('defense: switching layers moves the numbers the way the text says', async () => {
  const page = await openFlood('en.html');
  const summary = () => page.evaluate(() => window.bucketlab.defense.result.summary);
  const kind = () => page.getAttribute(`${MOUNT} .df-takeaway`, 'data-kind');
  const capacity = await page.evaluate(() => window.bucketlab.defense.result.originCapacity);

  await page.click(`${MOUNT} [data-preset="abuser"]`);
  let s = await summary();
  assert.equal(await kind(), 'abuser');
  assert.equal(s.attackersLimited, 1, 'one abusive client is stopped by its own bucket');
  assert.equal(s.usersLimited, 0);
  assert.match(await page.textContent(`${MOUNT} .df-takeaway`), new RegExp(`refused ${s.ipLimited} of`));

  // A distributed flood that the edge thins and the IPs' own buckets hold back: many attackers,
  // not "the abusive client".
  await page.evaluate(() => window.bucketlab.defense.setup({ attackers: 1000, attackRate: 5, layers: { edge: true } }));
  s = await summary();
  assert.equal(await kind(), 'attackers');
  assert.ok(s.attackersLimited > 1 && s.usersLimited === 0, JSON.stringify(s));
  assert.match(await page.textContent(`${MOUNT} .df-takeaway`), new RegExp(`^Their own buckets refused ${s.ipLimited.toLocaleString('en')} requests from the 1,000 attacking IPs;`));

  await page.click(`${MOUNT} [data-preset="flood"]`);
  const perIp = await summary();
  assert.equal(await kind(), 'overload');
  assert.equal(perIp.attackersLimited, 0, 'no IP is limited');
  assert.ok(perIp.originPeak > 5 * capacity, 'yet the origin is swamped');
  assert.ok(perIp.userFailedShare > 0.5);
  await page.locator(`${MOUNT} input[data-layer="perIp"]`).setChecked(false);
  // No bucket at all: no "0 of 10,000 IPs refused by their own bucket", which has none.
  assert.equal(await kind(), 'overloadUnlimited');
  assert.match(await page.textContent(`${MOUNT} .df-takeaway`), /^No bucket limits the flood in this run: the origin received up to [\d,]+ requests per second against a capacity of 1,000/);
  assert.deepEqual(await summary(), perIp, 'without per-IP buckets nothing changes');
  await page.locator(`${MOUNT} input[data-layer="perIp"]`).setChecked(true);

  // 100 IPs at 25/s each: every per-IP bucket refuses some, and the origin is still swamped.
  await page.evaluate(() => window.bucketlab.defense.setup({ attackers: 100, attackRate: 25 }));
  const heavy = await summary();
  assert.equal(await kind(), 'overloadLimited');
  assert.ok(heavy.attackersLimited > 0 && heavy.secondsOverCapacity > 0);
  assert.match(await page.textContent(`${MOUNT} .df-takeaway`), new RegExp(`refused ${heavy.attackersLimited} of the 100 attacking IPs`));
  await page.click(`${MOUNT} [data-preset="flood"]`);
  await page.locator(`${MOUNT} input[data-layer="perIp"]`).setChecked(false);

  await page.locator(`${MOUNT} input[data-layer="global"]`).setChecked(true);
  const global = await summary();
  assert.equal(await kind(), 'globalHurts');
  assert.ok(global.originPeak <= capacity, 'the global bucket protects the origin');
  assert.equal(global.usersFailed, 0);
  assert.ok(global.usersLimited > 100, 'and refuses legitimate users');

  await page.locator(`${MOUNT} input[data-layer="global"]`).setChecked(false);
  await page.locator(`${MOUNT} input[data-layer="edge"]`).setChecked(true);
  const edge = await summary();
  assert.ok(edge.originPeak < perIp.originPeak / 5, 'the edge absorbs most of the flood');
  assert.ok(edge.secondsOverCapacity > 0, 'but alone leaves the origin over capacity');

  // The three layers, as the text tells it: the edge takes the bulk, what passes fits under the
  // global bucket, the users are served.
  await page.click(`${MOUNT} [data-preset="depth"]`);
  const depth = await summary();
  assert.equal(await kind(), 'depthHolds');
  assert.ok(depth.originPeak <= capacity);
  assert.deepEqual([depth.usersLimited, depth.usersFailed, depth.globalLimited], [0, 0, 0], 'no user refused or timed out');
  assert.equal(await page.getAttribute(`${MOUNT} [data-preset="depth"]`, 'aria-pressed'), 'true');
  // At 99% the edge lets 100/s through; at 90% it would let 1,000/s: the reserve is said.
  assert.match(await page.textContent(`${MOUNT} .df-takeaway`), /no user got a 429\. The global bucket is held in reserve: if the edge absorbed only 90%/);
  // With fewer IPs (5,000: 500/s at 90%, with the users' 100/s under the bucket's 800/s) it is not.
  await page.evaluate(() => window.bucketlab.defense.setup({ attackers: 5000 }));
  assert.equal(await kind(), 'depthHolds');
  assert.match(await page.textContent(`${MOUNT} .df-takeaway`), /no user got a 429\.$/);
  await page.evaluate(() => window.bucketlab.defense.setup({ attackers: 10000 }));
  // An edge that lets 1,000/s through: the global bucket holds the origin, and says why users pay.
  await page.fill(`${MOUNT} .df-field--edgeShare input`, '90');
  await page.press(`${MOUNT} .df-field--edgeShare input`, 'Enter');
  await page.locator(`${MOUNT} .df-field--edgeShare input`).blur();
  await page.waitForFunction(() => document.querySelector('#flood-lab .df-takeaway').dataset.kind === 'depth');
  const leaky = await summary();
  assert.ok(leaky.originPeak <= capacity && leaky.usersLimited > 0);
  assert.ok(leaky.userLimitedShare < global.userLimitedShare, 'fewer 429s for users than the global bucket alone');
  assert.match(await page.textContent(`${MOUNT} .df-takeaway`), /about 1,000 attack requests per second through, and with the users' that is more than the global bucket admits \(800\/s\)/);
  assert.equal(await page.getAttribute(`${MOUNT} [data-preset="depth"]`, 'aria-pressed'), 'false');
  // One IP at 1/s, 90% absorbed: a tenth of a request a second gets through, not "about 0".
  await page.evaluate(() => window.bucketlab.defense.setup({ attackers: 1 }));
  assert.match(await page.textContent(`${MOUNT} .df-takeaway`), /\(about 0\.1 per second\)/);
  // A preset that is none is refused by name from the console, and the demo stays as it was.
  const refused = await page.evaluate(() => { try { window.bucketlab.defense.preset('Flood'); return null; } catch (e) { return e.message; } });
  assert.equal(refused, 'preset must be one of abuser, flood, depth, got "Flood" (a string)');
  assert.equal(await page.evaluate(() => window.bucketlab.defense.state.attackers), 1);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('defense: the takeaway shows each change at once and is said at a listener\'s pace: five arrow presses, two sentences, the last one current', async () => {
  const page = await openFlood('en.html');
  // The visible takeaway is no live region of its own: one voice, paced.
  assert.equal(await page.locator(`${MOUNT} [role="status"], ${MOUNT} [aria-live="polite"]`).count(), 1);
  assert.equal(await page.textContent(`${MOUNT} .df-spoken`), '', 'nothing said on load');
  await page.focus(`${MOUNT} .df-slider`);
  // The first at once, then one a gap (1.5 s) later: the latest. (A machine slow enough to take
  // more than a gap over the five presses may say one more in between, never one a press.)
  const { said, shown, most } = await pressPaced(page, {
    region: `${MOUNT} .df-spoken`, key: 'ArrowRight', times: 5, shown: `${MOUNT} .df-takeaway`,
  });
  assert.equal(said[0], shown[0]);
  assert.equal(said.at(-1), shown[4]);
  assert.ok(said.length <= most, `${said.length} sentences, at most ${most}:\n${said.join('\n')}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('defense: a bad setting is named and the last run stays', async () => {
  const page = await openFlood('en.html');
  const before = await cards(page);
  await page.fill(`${MOUNT} .df-field--attackRate input`, '0');
  await page.press(`${MOUNT} .df-field--attackRate input`, 'Enter');
  await page.locator(`${MOUNT} .df-field--attackRate input`).blur();
  await page.waitForFunction(() => document.querySelector('#flood-lab .df-error').textContent !== '');
  // Named by its label in the page's language, the field marked invalid and pointing at the message.
  const label = await page.textContent(`${MOUNT} .df-field--attackRate label`);
  assert.equal(await page.textContent(`${MOUNT} .df-error`), `${label}: 0 is not allowed; use a number greater than 0 and at most 100. The numbers shown are from the last valid run.`);
  const input = page.locator(`${MOUNT} .df-field--attackRate input`);
  assert.equal(await input.getAttribute('aria-invalid'), 'true');
  assert.equal(await input.getAttribute('aria-describedby'), await page.getAttribute(`${MOUNT} .df-error`, 'id'));
  assert.deepEqual(await cards(page), before);
  // In Portuguese, all of it in Portuguese (it said "Esse valor foi recusado (attackRate must be …)").
  const pt = await openFlood('');
  await pt.fill(`${MOUNT} .df-field--attackRate input`, '0');
  await pt.locator(`${MOUNT} .df-field--attackRate input`).blur();
  await pt.waitForFunction(() => document.querySelector('#flood-lab .df-error').textContent !== '');
  assert.equal(await pt.textContent(`${MOUNT} .df-error`), 'Requisições por segundo de cada IP atacante: 0 não é permitido; use um número maior que 0 e no máximo 100. Os números mostrados são da última execução válida.');
  // A good value clears the message and the mark.
  await pt.fill(`${MOUNT} .df-field--attackRate input`, '2');
  await pt.locator(`${MOUNT} .df-field--attackRate input`).blur();
  await pt.waitForFunction(() => document.querySelector('#flood-lab .df-error').textContent === '');
  assert.equal(await pt.locator(`${MOUNT} .df-field--attackRate input`).getAttribute('aria-invalid'), null);
  await pt.context().close();
  await page.context().close();
});

test('defense: the keys demo keys by endpoint and by user × endpoint', async () => {
  for (const [path] of PAGES) {
    const page = await openMounted(env, path, '#algorithm-lab', 'lab-ready');
    const results = () => page.evaluate(() => window.bucketlab.lab.keys.results().map((r) => ({ key: r.key, members: r.members, denied: r.denied })));
    await page.click('#algorithm-lab .lab-key-kinds input[value="endpoint"]');
    await page.waitForFunction(() => window.bucketlab.lab.keys.kind === 'endpoint');
    let r = await results();
    assert.deepEqual(r.map((c) => c.key), ['/items/:id', '/export', '/items/:id']);
    assert.deepEqual(r[0].members, [0, 2], 'web and mobile share the items bucket');
    assert.ok(r[1].denied > 0, 'the export alone on /export');
    await page.click('#algorithm-lab .lab-key-kinds input[value="user"]');
    await page.waitForFunction(() => window.bucketlab.lab.keys.kind === 'user');
    const byUser = (await results())[2].denied;
    await page.click('#algorithm-lab .lab-key-kinds input[value="userEndpoint"]');
    await page.waitForFunction(() => window.bucketlab.lab.keys.kind === 'userEndpoint');
    r = await results();
    assert.deepEqual(r.map((c) => c.members.length), [1, 1, 1], 'every client its own bucket');
    assert.ok(byUser > 0 && r[2].denied === 0, `bruno's phone app: ${byUser} refusals by user, none by user × endpoint`);
    assert.match(await page.textContent('#algorithm-lab .lab-key-explain'), /bruno/);
    assert.match(await page.textContent('#algorithm-lab [data-lane="mobile"] .lab-caption'), /\/items\/:id/);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('defense: the plans policy parses in the Config tab, and a bad plan is named with its line', async () => {
  for (const [path, lang] of PAGES) {
    const page = await openLesson(env, path);
    const plans = await page.textContent('figure[data-source="lesson/code/config/plans.yaml"] pre');
    await page.click('#tab-config');
    await page.waitForFunction(() => /Aplicado|Applied/.test(document.getElementById('policy-status').textContent));
    const setText = (text) => page.evaluate((value) => {
      const area = document.getElementById('policy-text');
      area.value = value;
      area.dispatchEvent(new Event('input', { bubbles: true }));
    }, text);
    await setText(plans);
    await page.waitForFunction(() => /B = 10, r = 2/.test(document.getElementById('policy-status').textContent));
    const line = plans.split('\n').findIndex((l) => l.includes('capacity: 300')) + 1;
    await setText(plans.replace('capacity: 300', 'capacity: 0'));
    await page.waitForFunction(() => document.getElementById('policy-text').getAttribute('aria-invalid') === 'true');
    const status = await page.textContent('#policy-status');
    const where = lang === 'en' ? `Line ${line}, field plans.paid.capacity` : `Linha ${line}, campo plans.paid.capacity`;
    assert.ok(status.includes(where), `"${status}" names ${where}`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

for (const [path, lang] of PAGES) {
  test(`defense: ${lang}: the recap has one check per part, answered from the core`, async () => {
    const page = await openMounted(env, path, '#recap-checks', 'df-ready');
    assert.equal(await page.locator('#recap-checks .df-recap-part').count(), 7);
    assert.equal(await page.locator('#recap-checks .df-recap-part .quiz-question').count(), 7);
    const questions = await page.evaluate(() => window.bucketlab.recap.questions.map((q) => ({ id: q.id, answer: q.answer })));
    const answer = Object.fromEntries(questions.map((q) => [q.id, q.answer]));
    const number = (n) => new Intl.NumberFormat(lang).format(n);
    assert.deepEqual([answer.bucket, answer.window, answer.servers, answer.retryAfter, answer.flood], [5, 20, 15, 1, 0].map(number));
    for (const href of await page.$$eval('#recap-checks .df-recap-title a', (all) => all.map((a) => a.getAttribute('href')))) {
      assert.equal(await page.locator(href).count(), 1, `${href} exists`);
    }
    const part = (id) => page.locator(`#recap-checks [data-question="${id}"]`);
    await part('flood').getByLabel(answer.flood, { exact: true }).check();
    await part('flood').locator('.quiz-check').click();
    assert.equal(await part('flood').locator('.quiz-verdict').getAttribute('data-correct'), 'true');
    // A right answer is explained too: the per-IP limit refuses the core's count of IPs.
    const floodWhy = await part('flood').locator('.quiz-verdict .quiz-why').textContent();
    assert.ok(floodWhy.includes(lang === 'en' ? `refuses ${answer.flood} IPs` : `recusa ${answer.flood} IPs`), floodWhy);
    // The lesson's own bucket, B = 5 and r = 1/s: 7 at once, 5 pass.
    assert.match(await part('bucket').locator('legend').textContent(), /B = 5, r = 1\/s\b.*\b7\b/);
    await part('bucket').getByLabel(number(7), { exact: true }).check();
    await part('bucket').locator('.quiz-check').click();
    const verdict = part('bucket').locator('.quiz-verdict');
    assert.equal(await verdict.getAttribute('data-correct'), 'false');
    // The answer after a label, never capitalised in the middle of a sentence ("the answer is A random…").
    const wrong = lang === 'en' ? 'Not quite. The right answer: 5.' : 'Não exatamente. Resposta certa: 5.';
    assert.equal(await verdict.locator('.quiz-verdict-text').textContent(), wrong);
    // Then why, inside the verdict (read with it when Check moves the focus there), worked out with
    // the core's numbers: the count that passed, and the rest refused.
    assert.equal(await page.evaluate(() => document.activeElement.className), 'quiz-verdict');
    const refused = number(7 - Number(answer.bucket));
    const why = lang === 'en'
      ? `so ${answer.bucket} of the ${number(7)} pass and the remaining ${refused} are refused`
      : `passam ${answer.bucket} das ${number(7)} e as outras ${refused} são recusadas`;
    assert.ok((await verdict.locator('.quiz-why').textContent()).includes(why), `the why says "${why}"`);
    assert.ok((await verdict.textContent()).startsWith(`${wrong} `), 'the why follows the verdict in what is read');
    assert.ok(await verdict.locator('.quiz-why').isVisible());
    // The options marked as in the lab: the right one, and the wrong pick.
    const marks = () => part('bucket').locator('.quiz-option').evaluateAll((rows) => rows
      .map((row) => [row.dataset.value, row.classList.contains('quiz-option--right') ? '✓' : row.classList.contains('quiz-option--wrong') ? '✗' : ''])
      .filter(([, m]) => m));
    assert.deepEqual(await marks(), [[number(5), '✓'], [number(7), '✗']].sort(([a], [b]) => Number(a) - Number(b)));
    // Retry-After's why: the core's wait of 0.25 s, written the language's way (0,25 in Portuguese).
    await part('retryAfter').getByLabel(number(0), { exact: true }).check();
    await part('retryAfter').locator('.quiz-check').click();
    const retryWhy = await part('retryAfter').locator('.quiz-why').textContent();
    assert.ok(retryWhy.includes(`${number(0.5)} / ${number(2)} = ${number(0.25)} s`) && retryWhy.endsWith(`: ${answer.retryAfter}.`), retryWhy);
    // Another choice clears the verdict and its why, until the next Check.
    await part('bucket').getByLabel(answer.bucket, { exact: true }).check();
    assert.equal(await verdict.textContent(), '');
    assert.equal(await verdict.locator('.quiz-why').count(), 0);
    assert.equal(await verdict.getAttribute('data-correct'), null);
    assert.equal(await verdict.isVisible(), false);
    assert.deepEqual(await marks(), [], 'and the marks');
    // From the keyboard: arrows move through the options without grading them; Check grades.
    await part('window').locator('input').first().focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await part('window').locator('.quiz-verdict').textContent(), '', 'nothing said while browsing');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    assert.notEqual(await part('window').locator('.quiz-verdict').getAttribute('data-correct'), null, 'graded on Check');
    assert.equal(await page.evaluate(() => document.activeElement.className), 'quiz-verdict', 'the verdict has the focus');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  test(`defense: ${lang}: on a phone each recap question reads inside its card, not cut by the card's top border`, async () => {
    const page = await openMounted(env, path, '#recap-checks', 'df-ready', { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
    // A legend set into the fieldset's border (the default) starts at the box's top edge, with the
    // border drawn through its middle: 4–5 lines at 375 px, half of them outside the card. Inside
    // the card, it starts below the border and the padding, like the options under it.
    const boxes = await page.$$eval('#recap-checks .quiz-question', (all) => all.map((fieldset) => {
      const style = getComputedStyle(fieldset);
      const card = fieldset.getBoundingClientRect();
      const legend = fieldset.querySelector('legend').getBoundingClientRect();
      return { inner: card.top + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop), legend: legend.top, lines: Math.round(legend.height), right: legend.right <= card.right };
    }));
    assert.equal(boxes.length, 7);
    for (const box of boxes) assert.ok(box.legend >= box.inner - 0.5 && box.right, JSON.stringify(box));
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`defense: ${lang}, ${colorScheme}: axe finds no violations in the new sections`, async () => {
      const page = await openFlood(path, { colorScheme });
      await page.click(`${MOUNT} [data-preset="depth"]`);
      await loadPart(page, '#recap-checks', 'df-ready');
      await page.locator('#recap-checks input[type=radio]').first().check();
      // Checked, so a verdict and its why (on the verdict's tint) are scanned too.
      await page.locator('#recap-checks .quiz-check').first().click();
      await page.waitForSelector('#recap-checks .quiz-verdict .quiz-why');
      const { violations } = await new AxeBuilder({ page })
        .include('#defesa-em-profundidade').include('#bons-limites').include('#recapitulacao')
        .analyze();
      assert.deepEqual(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`), []);
      await page.context().close();
    });
  }
}

test('defense: the plans table keeps the variables\' case ("Rate r", not "RATE R"), on a wide and a narrow screen', async () => {
  for (const [path, lang] of PAGES) {
    const page = await openLesson(env, path);
    const table = '#bons-limites table';
    await page.locator(table).scrollIntoViewIfNeeded();
    // The section renders when near (content-visibility): innerText shows the case on screen.
    await page.waitForFunction((sel) => document.querySelector(sel).innerText.trim() !== '', `${table} thead th`);
    const headers = await page.$$eval(`${table} thead th`, (all) => all.map((th) => th.innerText));
    const [rate, burst] = lang === 'en' ? ['Rate', 'Burst'] : ['Taxa', 'Rajada'];
    assert.ok(headers.includes(`${rate.toUpperCase()} r`), `${lang}: ${JSON.stringify(headers)}`);
    assert.ok(headers.includes(`${burst.toUpperCase()} B`), `${lang}: ${JSON.stringify(headers)}`);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.locator(`${table} tbody td`).first().scrollIntoViewIfNeeded();
    // Every card label as written: "Rate r" keeps its variable, and its neighbours the same case.
    const labels = await page.$$eval(`${table} tbody tr:first-child td`, (tds) => tds.map((td) => [getComputedStyle(td, '::before').content, getComputedStyle(td, '::before').textTransform]));
    // (Its alternative text is empty, `"Rate r" / ""`: the column header says it to a screen reader.)
    assert.ok(labels.some(([content]) => content === `"${rate} r" / ""`), JSON.stringify(labels));
    assert.deepEqual(labels.filter(([, transform]) => transform !== 'none'), []);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

// The capacity line's label sits where no column can cover it: in a band above the columns, the
// line running on past the last column up to it. Drawn on the line, it was under the columns as
// soon as the flood passed the capacity.
for (const [path, lang] of PAGES) {
  test(`defense: ${lang}: the capacity label is never covered by a column, and its line leads to it (375 and 1280 px)`, async () => {
    for (const width of [375, 1280]) {
      const page = await openFlood(path, { viewport: { width, height: 812 } });
      for (const preset of [null, 'abuser', 'flood', 'depth']) {
        if (preset) await page.click(`${MOUNT} [data-preset="${preset}"]`);
        await page.waitForFunction((p) => !p || document.querySelector(`#flood-lab [data-preset="${p}"]`).getAttribute('aria-pressed') === 'true', preset);
        const where = `${width} px, ${preset ?? 'default'}`;
        const look = await page.$eval(`${MOUNT} .df-svg`, (chart) => {
          const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          const label = chart.querySelector('.df-capacity-label').getBoundingClientRect();
          const line = chart.querySelector('.df-capacity').getBoundingClientRect();
          const box = chart.getBoundingClientRect();
          const columns = [...chart.querySelectorAll('.df-served, .df-failed')].map((c) => c.getBoundingClientRect()).filter((c) => c.height > 0);
          return {
            covered: columns.filter((c) => overlap(c, label)).length,
            inside: label.left >= box.left && label.right <= box.right && label.top >= box.top,
            // The line reaches the label's height and ends by its right edge.
            led: line.top <= label.bottom && line.right >= label.right,
            columns: columns.length,
          };
        });
        assert.ok(look.columns > 0, where);
        assert.deepEqual({ covered: look.covered, inside: look.inside, led: look.led }, { covered: 0, inside: true, led: true }, where);
      }
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
  });
}

test('defense: the edge share is refused as typed, in percent, and an empty field is called empty', async () => {
  const page = await openFlood('en.html');
  await page.locator(`${MOUNT} input[data-layer="edge"]`).setChecked(true);
  const field = `${MOUNT} .df-field--edgeShare input`;
  const error = () => page.textContent(`${MOUNT} .df-error`);
  await page.fill(field, '150');
  await page.locator(field).blur();
  await page.waitForFunction(() => document.querySelector('#flood-lab .df-error').textContent !== '');
  assert.match(await error(), /^Share of the flood the edge absorbs \(%\): 150 is not allowed; use a number from 0 to 100\./);
  await page.fill(field, '');
  await page.locator(field).blur();
  await page.waitForFunction(() => /empty/.test(document.querySelector('#flood-lab .df-error').textContent));
  assert.match(await error(), /^Share of the flood the edge absorbs \(%\): the field is empty; use a number from 0 to 100\./);
  await page.context().close();
});

test('while the recap\'s checks load, their list holds only items (its "Loading…" line is one), as axe requires', async () => {
  const page = await openLesson(env, 'en.html');
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/bucketlab_lab_bg*.wasm', async (route) => { await held; await route.continue(); });
  await page.evaluate(() => { window.bucketlab.loadRecap(); });
  await page.waitForSelector('#recap-checks > .df-loading');
  assert.deepEqual(await page.evaluate(() => [...new Set([...document.getElementById('recap-checks').children].map((c) => c.tagName))]), ['LI']);
  const violations = (await new AxeBuilder({ page }).include('#recap-checks').withRules(['list', 'listitem']).analyze()).violations;
  assert.deepEqual(violations.map((v) => v.id), []);
  release();
  await page.waitForFunction(() => document.getElementById('recap-checks').classList.contains('df-ready'));
  await page.context().close();
});

test('a recap whose code did not arrive says so in its own words, once, however often it is tried; a later try that works mounts it', async () => {
  const page = await openLesson(env, 'en.html');
  let refuse = true;
  await page.route('**/bucketlab_lab_bg*.wasm', (route) => (refuse ? route.abort() : route.continue()));
  const failures = () => page.evaluate(() => [...document.querySelectorAll('#recap-checks .lab-error')].map((e) => e.textContent));
  for (let tries = 1; tries <= 2; tries += 1) {
    await page.evaluate(() => window.bucketlab.loadRecap().catch(() => {}));
    await page.waitForFunction(() => !document.querySelector('#recap-checks .df-loading') && document.querySelector('#recap-checks .lab-error'));
    assert.deepEqual(await failures(), [
      'The recap\'s questions did not load: the connection may have dropped, or the site was updated since this page opened; try again, or reload the page.',
    ], `try ${tries}`);
  }
  refuse = false;
  await page.evaluate(() => window.bucketlab.loadRecap());
  await page.waitForFunction(() => document.getElementById('recap-checks').classList.contains('df-ready'));
  assert.deepEqual(await failures(), []);
  await page.context().close();
});
