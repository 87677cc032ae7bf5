// The clients section on the lesson page: loaded lazily from the lab's wasm module, the presets
// play, the scrubber works from the keyboard, the takeaway says what the cards show (in the
// singular for one attempt), both languages are complete, and a bad setting keeps the last good run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage } from './harness.mjs';
import { loadPart } from './lesson-helpers.mjs';

const env = useBrowser();
const MOUNT = '#clients-lab';

/** Opens the lesson (`path`), scrolls to the section and waits until it is mounted. */
async function openClients(path = '', options) {
  const page = await openPage(env.browser, options);
  await page.goto(env.server.url + path);
  await page.waitForSelector('#bucket-widget .bl-widget');
  await loadPart(page, MOUNT, 'cl-ready');
  return page;
}

const card = (page, key) => page.textContent(`${MOUNT} [data-metric="${key}"]`);
const handle = (page, expression) => page.evaluate(`(() => { const c = window.bucketlab.clients; return ${expression}; })()`);

test('clients: loaded with the lab module only near the viewport, without console problems', async () => {
  const page = await openPage(env.browser);
  const wasm = [];
  page.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(r.url().split('/').pop()); });
  await page.goto(env.server.url);
  await page.waitForSelector('#bucket-widget .bl-widget');
  assert.ok(!wasm.includes('bucketlab_lab_bg.wasm'), 'not loaded at first');
  await page.locator(MOUNT).scrollIntoViewIfNeeded();
  await page.waitForSelector(`${MOUNT}.cl-ready`);
  assert.ok(wasm.includes('bucketlab_lab_bg.wasm'));
  assert.equal(await page.locator(`${MOUNT} .cl-row`).count(), 6, 'one row per policy');
  assert.equal(await page.locator(`${MOUNT} .quiz-question`).count(), 2);
  // Before any interaction every button has a name: the player's says what it does.
  assert.equal(await page.locator(`${MOUNT} .cl-play`).textContent(), 'Reproduzir');
  const unnamed = await page.$$eval(`${MOUNT} button`, (buttons) => buttons.filter((b) => !b.textContent.trim() && !b.getAttribute('aria-label')).length);
  assert.equal(unnamed, 0, 'no button without a name');
  // The jitter checkbox sits beside its label, on one row (the field grid used to stack them).
  const [box, label] = await page.$$eval(`${MOUNT} .cl-field--check > *`, (parts) => parts.map((p) => p.getBoundingClientRect().toJSON()));
  assert.ok(box.right <= label.left, `checkbox (right ${box.right}) left of its label (left ${label.left})`);
  assert.ok(Math.abs((box.top + box.bottom) / 2 - (label.top + label.bottom) / 2) < 4, 'on one row');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('clients: both presets play to the end, and each takeaway states the metrics on the cards', async () => {
  const page = await openClients();
  for (const preset of ['herd', 'jitter']) {
    await page.focus(`${MOUNT} [data-preset="${preset}"]`);
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute(`${MOUNT} [data-preset="${preset}"]`, 'aria-pressed'), 'true');
    await page.waitForFunction(() => window.bucketlab.clients.playing);
    await page.waitForFunction(() => { const c = window.bucketlab.clients; return !c.playing && c.time === c.end; });
    assert.equal(await page.locator(`${MOUNT} .cl-histogram .cl-future`).count(), 0, 'every bar shown at the end');
    const takeaway = await page.textContent(`${MOUNT} .cl-takeaway`);
    assert.equal(await page.getAttribute(`${MOUNT} .cl-takeaway`, 'data-kind'), preset);
    const metrics = await handle(page, 'c.result.main.metrics');
    // The card's own text is in the sentence: the same rounding, the same number.
    const perSuccess = await card(page, 'perSuccess');
    assert.ok(takeaway.includes(perSuccess), `"${takeaway}" names ${perSuccess}`);
    assert.equal(Number(perSuccess.replace(',', '.')), Math.round(metrics.attemptsPerSuccess * 10) / 10);
    assert.ok(takeaway.includes(String(metrics.peakRetries)), `"${takeaway}" names ${metrics.peakRetries}`);
    if (preset === 'herd') {
      // The finish card's last figure ("p50 / p95 / max s") is the sentence's last client.
      const max = (await card(page, 'finish')).split(' / ').at(-1).replace(' s', '');
      assert.ok(takeaway.includes(`${max}\u00a0s`), `"${takeaway}" names the last finish, ${max} s (a no-break space before the unit)`);
      const retries = await handle(page, '[...c.result.main.times].filter((_, i) => c.result.main.retries[i])');
      assert.ok(retries.every(Number.isInteger), 'Retry-After in whole seconds: every retry on a whole second');
      assert.ok(metrics.peakRetries >= 80, 'the retries still come back as one wave');
    } else {
      const herd = await handle(page, 'c.result.herd.metrics');
      const herdPerSuccess = (Math.round(herd.attemptsPerSuccess * 10) / 10).toLocaleString('pt-BR');
      assert.ok(takeaway.includes(herdPerSuccess), `"${takeaway}" compares with the herd's ${herdPerSuccess}`);
      assert.ok(metrics.attemptsPerSuccess < herd.attemptsPerSuccess, 'jitter wastes less');
      assert.ok(metrics.peakRetries * 5 <= herd.peakRetries, 'jitter breaks up the waves');
    }
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('clients: each figure stays under its own label at any column count (200% zoom), and the jittered Retry-After row says it has jitter', async () => {
  // A 1280-px screen at 200%: the cards' grid has three columns.
  const page = await openClients('en.html', { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 });
  const pairs = () => page.$$eval(`${MOUNT} .cl-cards > div`, (cards) => cards.map((card) => {
    const [dt, dd] = [card.querySelector('dt').getBoundingClientRect(), card.querySelector('dd').getBoundingClientRect()];
    return { under: dd.top >= dt.bottom - 1 && Math.abs(dd.left - dt.left) < 2, metric: card.querySelector('dd').dataset.metric };
  }));
  assert.deepEqual(await pairs(), ['perSuccess', 'finish', 'peak', 'denied', 'gaveUp'].map((metric) => ({ under: true, metric })));
  const rows = () => page.$$eval(`${MOUNT} .cl-row[data-policy="retryAfter"] .cl-row-label`, (labels) => labels.map((l) => l.textContent));
  assert.match((await rows())[0], /^Honor Retry-After \(whole seconds\): /);
  await page.click(`${MOUNT} [data-preset="jitter"]`);
  await page.waitForFunction((m) => document.querySelector(`${m} [data-preset="jitter"]`).getAttribute('aria-pressed') === 'true', MOUNT);
  assert.match((await rows())[0], /^Honor Retry-After \+ full jitter \(whole seconds\): /);
  // The player's step and restart are said, with what the chart shows by then.
  const said = () => page.textContent(`${MOUNT} .cl-player p[aria-live=polite]`);
  await page.click(`${MOUNT} .cl-restart`);
  assert.match(await said(), /^t = 0 s of [\d.]+ s: \d+ of \d+ attempts so far; \d+ admitted\.$/);
  await page.click(`${MOUNT} .cl-step`);
  assert.match(await said(), /^t = 0\.1 s of [\d.]+ s: \d+ of \d+ attempts so far; \d+ admitted\.$/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('clients: a Try this item pressed from the keyboard takes the focus to the run it set up, in view', async () => {
  const page = await openClients('en.html', { reducedMotion: 'reduce' });
  const item = page.locator(`${MOUNT} .cl-try-item`).first();
  await item.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((m) => document.activeElement === document.querySelector(`${m} .cl-takeaway`), MOUNT);
  assert.ok(await page.evaluate((m) => {
    const { top, bottom } = document.querySelector(`${m} .cl-takeaway`).getBoundingClientRect();
    return top >= 0 && bottom <= innerHeight;
  }, MOUNT), 'the focused takeaway is on screen');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('clients: under reduced motion a preset shows its run\'s end at once, and Play, pressed, plays it through time as the lab\'s does', async () => {
  const page = await openClients('en.html', { reducedMotion: 'reduce' });
  await page.click(`${MOUNT} .cl-preset >> nth=1`);
  const time = () => page.textContent(`${MOUNT} .cl-time`);
  const [at, end] = (await time()).match(/[\d.]+/g).map(Number);
  assert.equal(at, end, 'the preset shows its end');
  await page.click(`${MOUNT} .cl-play`);
  // Played from the start again: a moment strictly inside the run shows before the end.
  await page.waitForFunction((m) => {
    const [t, e] = document.querySelector(`${m} .cl-time`).textContent.match(/[\d.]+/g).map(Number);
    return t > 0 && t < e;
  }, MOUNT);
  await page.click(`${MOUNT} .cl-play`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('clients: one client with a bucket to spare: the sentences say "1 attempt", in both languages', async () => {
  for (const [path, words] of [
    ['', {
      summary: '1 de 1 tentativa até agora; admitidas: 1',
      takeaway: 'Esta execução: 1 tentativa por sucesso, 0% respondidas com 429, no máximo 1 tentativa em 100\u00a0ms; clientes que desistiram: 0.',
      row: /^Martelo \(tenta de novo na hora\): 1 tentativa, pico de 1 em 100\u00a0ms/,
    }],
    ['en.html', {
      summary: '1 of 1 attempt so far; 1 admitted',
      takeaway: 'This run: 1 attempt per success, 0% answered 429, at most 1 attempt in 100\u00a0ms; clients that gave up: 0.',
      row: /^Hammer \(retry at once\): 1 attempt, peak 1 per 100\u00a0ms/,
    }],
  ]) {
    const page = await openClients(path);
    await handle(page, 'c.setup({ clients: 1, successes: 1, spread: 0, capacity: 10, rate: 10 })');
    await handle(page, 'c.seek(c.end)');
    assert.equal(await handle(page, 'c.result.main.metrics.attempts'), 1);
    assert.equal(await page.textContent(`${MOUNT} .cl-summary`), words.summary);
    assert.equal(await page.textContent(`${MOUNT} .cl-takeaway`), words.takeaway);
    assert.match(await page.textContent(`${MOUNT} .cl-row[data-policy="hammer"] .cl-row-label`), words.row);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('clients: the exact-wait "Try this" is named as no HTTP header, in the policy list and its row', async () => {
  const page = await openClients('en.html');
  const option = `${MOUNT} .cl-field--policy input[value="retryAfter"] + label`;
  const row = `${MOUNT} .cl-row[data-policy="retryAfter"] .cl-row-label`;
  assert.equal(await page.textContent(option), 'Honor Retry-After (whole seconds)');
  await page.click(`${MOUNT} [data-try="exactWait"]`);
  await page.waitForFunction(() => window.bucketlab.clients.result.main.metrics.gaveUp > 0);
  assert.equal(await page.textContent(option), 'Wait the exact time (not an HTTP header)');
  assert.match(await page.textContent(row), /^Wait the exact time \(not an HTTP header\): /);
  // Some gave up: the finishing times are the others', and the card's label says how many.
  const { clients, gaveUp } = await handle(page, '({ clients: 100, gaveUp: c.result.main.metrics.gaveUp })');
  const finish = `${MOUNT} [data-metric="finish"]`;
  assert.equal(await page.evaluate((s) => document.querySelector(s).previousElementSibling.textContent, finish),
    `Time to finish, of the ${clients - gaveUp} clients that finished: median / 95th percentile / last`);
  await handle(page, 'c.preset("herd")');
  assert.equal(await page.evaluate((s) => document.querySelector(s).previousElementSibling.textContent, finish),
    'Time to finish: median / 95th percentile / last', 'nobody gave up in the herd');
  assert.equal(await page.textContent(option), 'Honor Retry-After (whole seconds)');
  assert.match(await page.textContent(row), /^Honor Retry-After \(whole seconds\): /);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('clients: "own bucket" is a setting the form shows, so a later Run keeps it only while it is ticked; the results come into view', async () => {
  const page = await openClients('en.html');
  const own = `${MOUNT} .cl-form input[type=checkbox]:not(:is(.cl-field--policy *))`;
  assert.equal(await page.isChecked(own), false, 'one bucket for all, as the lesson says');
  await page.click(`${MOUNT} [data-try="ownBuckets"]`);
  await page.waitForFunction(() => window.bucketlab.clients.result.main.metrics.deniedShare === 0);
  assert.equal(await page.isChecked(own), true, 'the Try this shows what it set');
  // The takeaway it changed, far above the list, is on the screen.
  await page.waitForFunction((m) => {
    const r = document.querySelector(`${m} .cl-takeaway`).getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  }, MOUNT);
  await page.check(`${MOUNT} .cl-field--policy input[value="hammer"]`);
  await page.click(`${MOUNT} .cl-run`);
  assert.equal(await handle(page, 'c.result.main.metrics.deniedShare'), 0, 'ticked: each client its own bucket, no 429');
  await page.uncheck(own);
  await page.click(`${MOUNT} .cl-run`);
  assert.ok(await handle(page, 'c.result.main.metrics.deniedShare') > 0, 'unticked: the hammer on one bucket gets 429s');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('clients: a fixed wait or backoff without jitter says why its waves are the herd\'s', async () => {
  const page = await openClients('en.html');
  for (const policy of ['exponential', 'fixed']) {
    await page.check(`${MOUNT} .cl-field--policy input[value="${policy}"]`);
    await page.click(`${MOUNT} .cl-run`);
    assert.match(await page.textContent(`${MOUNT} .cl-takeaway`), /Waiting alike, the refused clients stay in step: they come back together, the same waves as the herd, only later\. Jitter is what spreads them\.$/, policy);
  }
  await page.check(`${MOUNT} .cl-field--policy input[value="fullJitter"]`);
  await page.click(`${MOUNT} .cl-run`);
  assert.doesNotMatch(await page.textContent(`${MOUNT} .cl-takeaway`), /stay in step/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('clients: the scrubber moves the run from the keyboard', async () => {
  const page = await openClients();
  await handle(page, 'c.preset("herd")');
  await handle(page, 'c.pause()');
  await page.focus(`${MOUNT} .cl-scrubber`);
  await page.keyboard.press('Home');
  await page.waitForFunction(() => window.bucketlab.clients.time === 0);
  const hiddenAtZero = await page.locator(`${MOUNT} .cl-histogram .cl-future`).count();
  assert.ok(hiddenAtZero > 0, 'later bars hidden at t = 0');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => Math.abs(window.bucketlab.clients.time - 0.3) < 1e-9);
  assert.match(await page.textContent(`${MOUNT} .cl-time`), /^t = 0,3 s/);
  const summary = await page.textContent(`${MOUNT} .cl-summary`);
  const shown = await handle(page, 'c.result.main.times.filter((t) => t <= c.time).length');
  assert.ok(summary.startsWith(`${shown} de`), summary);
  assert.ok(await page.locator(`${MOUNT} .cl-histogram .cl-future`).count() < hiddenAtZero);
  await page.keyboard.press('End');
  await page.waitForFunction(() => { const c = window.bucketlab.clients; return c.time === c.end; });
  assert.equal(await page.locator(`${MOUNT} .cl-histogram .cl-future`).count(), 0);
  await page.context().close();
});

test('clients: a bad setting names field, value and range, and keeps the last good run', async () => {
  const page = await openClients();
  const before = await card(page, 'perSuccess');
  await page.fill(`${MOUNT} .cl-field input[inputmode="decimal"] >> nth=0`, '0');
  await page.click(`${MOUNT} .cl-run`);
  await page.waitForSelector(`${MOUNT} .cl-error:not(:empty)`);
  // Named by its label in the page's language, the field marked invalid and pointing at the message.
  assert.equal(await page.textContent(`${MOUNT} .cl-error`), 'Clientes: 0 não é permitido; use um número inteiro de 1 a 500. A última execução válida continua na tela.');
  const first = page.locator(`${MOUNT} .cl-field input[inputmode="decimal"] >> nth=0`);
  assert.equal(await first.getAttribute('aria-invalid'), 'true');
  assert.equal(await first.getAttribute('aria-describedby'), await page.getAttribute(`${MOUNT} .cl-error`, 'id'));
  assert.equal(await card(page, 'perSuccess'), before, 'the last good run stays');
  await page.context().close();
});

test('clients: an empty field is refused as missing; nothing runs and nothing is lost', async () => {
  const page = await openClients('en.html');
  const clients = `${MOUNT} .cl-field input[inputmode="decimal"] >> nth=0`;
  const before = {
    perSuccess: await card(page, 'perSuccess'),
    takeaway: await page.textContent(`${MOUNT} .cl-takeaway`),
    pressed: await page.getAttribute(`${MOUNT} .cl-preset[data-preset="herd"]`, 'aria-pressed'),
  };
  await page.evaluate(() => { window.clientsRunBefore = window.bucketlab.clients.result; });
  assert.equal(before.pressed, 'true', 'the herd preset is the first run');
  await page.fill(`${MOUNT} .cl-field input[inputmode="decimal"] >> nth=1`, '2');
  await page.fill(clients, '');
  await page.click(`${MOUNT} .cl-run`);
  await page.waitForSelector(`${MOUNT} .cl-error:not(:empty)`);
  assert.equal(await page.textContent(`${MOUNT} .cl-error`), 'Clients: the field is empty; use a whole number from 1 to 500. The last good run is still shown.');
  assert.equal(await page.inputValue(clients), '', 'the empty field stays empty');
  assert.equal(await page.inputValue(`${MOUNT} .cl-field input[inputmode="decimal"] >> nth=1`), '2', 'the other edit is kept');
  assert.equal(await card(page, 'perSuccess'), before.perSuccess);
  assert.equal(await page.textContent(`${MOUNT} .cl-takeaway`), before.takeaway);
  assert.equal(await page.getAttribute(`${MOUNT} .cl-preset[data-preset="herd"]`, 'aria-pressed'), 'true');
  assert.equal(await handle(page, 'c.result === window.clientsRunBefore'), true, 'nothing ran');
  // Text that is no number it can read is quoted as typed, not called empty.
  await page.focus(clients);
  await page.keyboard.type('1e400');
  await page.click(`${MOUNT} .cl-run`);
  await page.waitForFunction((m) => /too large/.test(document.querySelector(`${m} .cl-error`).textContent), MOUNT);
  assert.equal(await page.textContent(`${MOUNT} .cl-error`),
    'Clients: “1e400” is too large; use a whole number from 1 to 500. The last good run is still shown.');
  assert.equal(await handle(page, 'c.result === window.clientsRunBefore'), true, 'nothing ran');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('clients (pt-BR page, English browser): 0,5 typed is 0.5, not the 5 a number field made of it; 1,000 is refused with both readings', async () => {
  const page = await openClients('', { locale: 'en-US' });
  const rate = `${MOUNT} .cl-field input[inputmode="decimal"] >> nth=4`;
  assert.equal(await page.getAttribute(rate, 'type'), 'text');
  await page.fill(rate, '');
  await page.focus(rate);
  await page.keyboard.type('0,5');
  await page.click(`${MOUNT} .cl-run`);
  // The run took 0.5 (the form's submit runs it at once), and the field shows it as the page writes it.
  assert.equal(await page.textContent(`${MOUNT} .cl-error`), '');
  assert.equal(await page.inputValue(rate), '0,5');
  await page.fill(rate, '1.5');
  await page.click(`${MOUNT} .cl-run`);
  assert.equal(await page.inputValue(rate), '1,5', 'a point reads too, and is shown with the page\'s comma');
  await page.fill(`${MOUNT} .cl-field input[inputmode="decimal"] >> nth=0`, '1,000');
  await page.click(`${MOUNT} .cl-run`);
  await page.waitForSelector(`${MOUNT} .cl-error:not(:empty)`);
  assert.equal(await page.textContent(`${MOUNT} .cl-error`),
    'Clientes: em “1,000” a vírgula pode separar milhares ou decimais; escreva 1000 se for o número inteiro, ou 1 se for o decimal. A última execução válida continua na tela.');
  // 1.000 is how this page writes a thousand: refused with both readings too, never read as 1.
  await page.fill(`${MOUNT} .cl-field input[inputmode="decimal"] >> nth=0`, '1.000');
  await page.click(`${MOUNT} .cl-run`);
  await page.waitForFunction((sel) => document.querySelector(sel).textContent.includes('1.000'), `${MOUNT} .cl-error`);
  assert.equal(await page.textContent(`${MOUNT} .cl-error`),
    'Clientes: em “1.000” o ponto pode separar milhares ou decimais; escreva 1000 se for o número inteiro, ou 1 se for o decimal. A última execução válida continua na tela.');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const path of ['', 'en.html']) {
  test(`clients: every word is translated (${path || 'index.html'}), and the quiz answers from the run`, async () => {
    const page = await openClients(path);
    const text = await page.textContent(MOUNT);
    assert.ok(!text.includes('⟦'), 'no missing keys');
    assert.equal(await handle(page, 'c.lang'), path ? 'en' : 'pt-BR');
    // Choose the right answer of the first question: the herd's attempts per success.
    const herd = await handle(page, 'Math.round(c.result.main.metrics.attemptsPerSuccess * 10) / 10');
    const answer = herd.toLocaleString(path ? 'en' : 'pt-BR');
    // Its options in increasing order, as numbers (as text, 16.5 came before 5.5).
    const options = await page.$$eval(`${MOUNT} [data-question="perSuccess"] input`, (inputs) => inputs.map((i) => i.value));
    const read = options.map((o) => Number(path ? o.replace(/,/g, '') : o.replace(/\./g, '').replace(',', '.')));
    assert.deepEqual(read, [...read].sort((a, b) => a - b), options.join(' | '));
    await page.check(`${MOUNT} [data-question="perSuccess"] input[value="${answer}"]`);
    await page.click(`${MOUNT} [data-question="perSuccess"] .quiz-check`);
    assert.equal(await page.getAttribute(`${MOUNT} [data-question="perSuccess"] .quiz-verdict`, 'data-correct'), 'true');
    // The verdict takes the focus, and is read as such: not also a live region (said twice).
    assert.deepEqual(await page.evaluate(() => [document.activeElement.className, document.activeElement.getAttribute('role')]), ['quiz-verdict', null]);
    await page.context().close();
  });
}

// The client policy's name is read whole wherever it is chosen: a menu cut the chosen one at its
// width ("Respeitar o Retry-After (segundos in" at 1280 px, "Honour Retry-After (whole seconds" at
// 375), and no menu wraps; as radio buttons each name wraps inside the form. The exact wait's name,
// the longest, is checked too.
test('clients: every client policy\'s name is read whole, on a phone and a laptop, in both languages', async () => {
  for (const [path, width] of [['', 375], ['en.html', 375], ['', 1280], ['en.html', 1280]]) {
    const page = await openClients(path, { viewport: { width, height: 812 } });
    // A check box beside a label of three lines keeps its size: a flex row squashed it to 13 × 20 px.
    const boxes = await page.$$eval(`${MOUNT} input[type="checkbox"]`, (inputs) => inputs.filter((i) => i.checkVisibility())
      .map((i) => { const r = i.getBoundingClientRect(); return [i.id, Math.round(r.width), Math.round(r.height)]; }));
    assert.ok(boxes.length > 0, 'a check box shown');
    for (const [id, w, h] of boxes) assert.deepEqual([w, h], [20, 20], `${path || 'index.html'}, ${width} px: ${id}`);
    for (const header of ['whole', 'exact']) {
      await handle(page, `c.setup({ header: '${header}' })`);
      const cut = await page.$eval(`${MOUNT} .cl-form`, (form) => {
        const right = form.getBoundingClientRect().right;
        const select = form.querySelector('.cl-field--policy select');
        if (select) {
          // A menu shows its chosen option on one line, in the box less its padding and arrow.
          const style = getComputedStyle(select);
          const context = document.createElement('canvas').getContext('2d');
          context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 1.5 * parseFloat(style.fontSize);
          return [...select.options].filter((o) => context.measureText(o.text).width > room).map((o) => `${o.text} (${Math.round(room)} px)`);
        }
        return [...form.querySelectorAll('.cl-field--policy input[type="radio"] + label')]
          .filter((label) => label.scrollWidth > label.clientWidth + 0.5 || label.getBoundingClientRect().right > right + 0.5)
          .map((label) => label.textContent);
      });
      assert.deepEqual(cut, [], `${path || 'index.html'}, ${width} px, ${header}: names cut short`);
    }
    assert.equal(await page.locator(`${MOUNT} .cl-field--policy input[type="radio"]`).count(), 6, 'one choice per policy');
    // Choosing one from the form runs it; the jitter box is Retry-After's only.
    await page.check(`${MOUNT} .cl-field--policy input[value="hammer"]`);
    assert.equal(await page.isVisible(`${MOUNT} .cl-field--check`), false, 'no jitter for the hammer');
    await page.click(`${MOUNT} .cl-run`);
    const ran = 'JSON.stringify(c.result.main.metrics) === JSON.stringify(c.result.rows.find((r) => r.policy === "hammer").run.metrics)';
    assert.equal(await handle(page, ran), true, 'the hammer ran');
    await page.check(`${MOUNT} .cl-field--policy input[value="retryAfter"]`);
    assert.equal(await page.isVisible(`${MOUNT} .cl-field--check`), true, 'the jitter box under Retry-After');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('clients: the console player refuses a moment off the axis, a step that is not a number or an unknown preset, and stays where it was', async () => {
  const page = await openClients('en.html');
  await handle(page, 'c.seek(1)');
  const end = await handle(page, 'c.end');
  for (const [call, message] of [
    ['c.seek(NaN)', `time must be a finite number of seconds (the axis runs from 0 to ${end}), got NaN`],
    [`c.seek(${end} + 1)`, `time must be a finite number of seconds (the axis runs from 0 to ${end}), got ${end + 1}`],
    ["c.seek('2')", `time must be a finite number of seconds (the axis runs from 0 to ${end}), got "2" (a string)`],
    ['c.step(undefined * 1)', `seconds must be a finite number of seconds (the axis runs from 0 to ${end}), got NaN`],
    // A preset that is none: named, not a TypeError shown in the section as its error.
    ["c.preset('herd2')", 'preset must be one of herd, jitter, got "herd2" (a string)'],
  ]) {
    const error = await page.evaluate(`(() => { try { ${call.replace(/^c\./, 'window.bucketlab.clients.')}; return 'no error'; } catch (e) { return e.message; } })()`);
    assert.equal(error, message, call);
    assert.equal(await handle(page, 'c.time'), 1, `${call} left the time alone`);
  }
  await handle(page, 'c.step(0.5)');
  assert.equal(await handle(page, 'c.time'), 1.5);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
