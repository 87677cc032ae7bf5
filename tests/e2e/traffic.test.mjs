// "Your traffic": a generated log set on the file input gives the same per-client counts (and the
// same report) as `bucketlab replay --json` on the same file, in both languages; malformed lines
// are reported with their numbers; no request leaves the page while the file is replayed; cancel
// stops a long replay; binary garbage and an empty file get a clear message; a log of one request
// and one unreadable line is told in the singular.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';
import { useBrowser, openPage } from './harness.mjs';
import { loadPart, replayShown } from './lesson-helpers.mjs';

const env = useBrowser();
const MOUNT = '#traffic-lab';
const ROOT = new URL('../../', import.meta.url).pathname;
let dir;

before(() => { dir = mkdtempSync(join(tmpdir(), 'bucketlab-traffic-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

/** A seeded PRNG (mulberry32), so the log is the same on every run. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A combined log with `$msec`: 40 clients (some IPv6), one of them bursty, escaped quotes in the
 * request; lines 3 and 250 are malformed.
 */
function generatedLog(lines, seed = 11) {
  const random = rng(seed);
  const clients = Array.from({ length: 40 }, (_, i) => (i % 5 === 0 ? `2001:db8::${i.toString(16)}` : `192.0.2.${i + 1}`));
  let time = 1_700_000_000;
  const out = [];
  for (let n = 1; n <= lines; n++) {
    if (n === 3) { out.push('this is not a log line'); continue; }
    if (n === 250) { out.push('192.0.2.1 - - [14/Nov/2023:22:13:20 +0000] "GET / HTTP/1.1" 2000 12'); continue; }
    time += random() * 0.2;
    const client = random() < 0.3 ? clients[0] : clients[Math.floor(random() * clients.length)];
    const d = new Date(Math.floor(time) * 1000);
    const stamp = `${String(d.getUTCDate()).padStart(2, '0')}/Nov/2023:${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}:${String(d.getUTCSeconds()).padStart(2, '0')} +0000`;
    out.push(`${client} - - [${stamp}] "GET /search?q=\\"x${n}\\" HTTP/1.1" 200 ${100 + n % 900} "-" "test/1.0" ${time.toFixed(3)}`);
  }
  return `${out.join('\n')}\n`;
}

/** The command's report for `file`, from the release binary built from this checkout. */
function cliReport(file, args) {
  const out = execFileSync('cargo', ['run', '-q', '--release', '--bin', 'bucketlab', '--', 'replay', ...args, '--json', file], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out);
}

async function openTraffic(path = '', options = {}) {
  const page = await openPage(env.browser, options);
  await page.goto(env.server.url + path);
  await page.waitForSelector('#bucket-widget .bl-widget');
  await loadPart(page, MOUNT, 'tr-ready');
  return page;
}

test('traffic: a worker whose code does not arrive is said with a reload, and the next run starts a new one', async () => {
  const page = await openPage(env.browser);
  await page.route('**/traffic/worker.js', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto(`${env.server.url}en.html`);
  await loadPart(page, MOUNT, 'tr-ready');
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForSelector(`${MOUNT} .tr-error .part-reload`);
  assert.equal((await page.textContent(`${MOUNT} .tr-error`)).trim(),
    'This part of the lesson did not load: the connection may have dropped, or the site was updated since this page opened. Reload the page');
  assert.equal(await page.getAttribute(`${MOUNT} .tr-sample`, 'aria-disabled'), 'false', 'not left busy');
  await page.unroute('**/traffic/worker.js');
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.report?.requests > 0);
  assert.equal(await page.textContent(`${MOUNT} .tr-error`), '');
  await page.context().close();
});

test('traffic: as the section says, once a sample log has run, a file chosen with the network off is replayed', async () => {
  const file = join(dir, 'offline.log');
  writeFileSync(file, generatedLog(300));
  const page = await openTraffic('en.html');
  assert.match(await page.textContent('#traffic-lab .tr-privacy, .tr-privacy'), /use a sample log once .*then disconnect from the network before choosing your file\.$/);
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.report?.requests > 0);
  await page.context().setOffline(true);
  await page.setInputFiles(`${MOUNT} .tr-file`, file);
  await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.report?.lines === 300);
  assert.equal(await page.textContent(`${MOUNT} .tr-error`), '');
  await page.context().setOffline(false);
  await page.context().close();
});

test('traffic: while the replay\'s code downloads, the progress says so, its bar without a value, rather than "0% read"', async () => {
  const page = await openPage(env.browser);
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.context().route('**/bucketlab_replay_bg*.wasm', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${env.server.url}en.html`);
  await loadPart(page, MOUNT, 'tr-ready');
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForFunction((m) => document.querySelector(`${m} .tr-progress`).parentElement.textContent.includes('Downloading the code that replays logs…'), MOUNT);
  assert.equal(await page.getAttribute(`${MOUNT} .tr-progress`, 'value'), null, 'an indeterminate bar');
  release();
  await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.report?.requests > 0);
  await page.context().close();
});

/** The English page with the sample replayed once while its wasm's first download fails. */
async function sampleWithoutWasm() {
  const page = await openPage(env.browser);
  // The worker fetches the wasm: the context's routes see that request.
  await page.context().route('**/bucketlab_replay_bg*.wasm', (route) => route.abort(), { times: 1 });
  await page.goto(`${env.server.url}en.html`);
  await loadPart(page, MOUNT, 'tr-ready');
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForFunction((m) => document.querySelector(`${m} .tr-error`)?.textContent, MOUNT);
  return page;
}

test('traffic: a wasm that does not download is said as such, not as a setting, and the next run downloads it', async () => {
  const page = await sampleWithoutWasm();
  const said = await page.textContent(`${MOUNT} .tr-error`);
  assert.doesNotMatch(said, /setting/i);
  assert.equal(said, 'The code that replays logs could not be downloaded: the connection may have dropped, or the site was updated since this page opened. Try again; if it fails again, reload the page.');
  assert.equal(await page.getAttribute(`${MOUNT} .tr-sample`, 'aria-disabled'), 'false', 'not left busy');
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.report?.requests > 0);
  await page.waitForSelector(`${MOUNT} .tr-table`);
  assert.equal(await page.textContent(`${MOUNT} .tr-error`), '');
  await page.context().close();
});

test('traffic: after a wasm that did not download, the connection\'s return replays the same log again by itself', async () => {
  const page = await sampleWithoutWasm();
  assert.equal(await page.evaluate(() => window.bucketlab.traffic?.outcome ?? null), null);
  await page.evaluate(() => dispatchEvent(new Event('online')));
  await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.report?.requests > 0);
  await page.waitForSelector(`${MOUNT} .tr-table`);
  assert.equal(await page.textContent(`${MOUNT} .tr-error`), '');
  await page.context().close();
});

async function setPolicy(page, capacity, rate, target) {
  await page.fill(`${MOUNT} .tr-field--capacity input`, String(capacity));
  await page.fill(`${MOUNT} .tr-field--rate input`, String(rate));
  await page.check(`${MOUNT} .tr-field--target input[value="${target}"]`);
}

for (const [path, lang] of [['', 'pt-BR'], ['en.html', 'en']]) {
  test(`traffic (${lang}): a dropped log gives the command's counts, its malformed lines, and no network request`, async () => {
    const file = join(dir, `access-${lang}.log`);
    writeFileSync(file, generatedLog(3000));
    const expected = cliReport(file, ['--capacity', '4', '--refill-rate', '0.5', '--recommend', 'keys:95%']);
    assert.ok(expected.limited > 0 && expected.malformed === 2, 'the log exercises refusals and malformed lines');

    const page = await openTraffic(path);
    // Load the worker and its wasm first (the sample), then watch the network during the replay.
    assert.equal(await page.textContent(`${MOUNT} .tr-rerun`), lang === 'en' ? 'Replay' : 'Reproduzir', 'nothing replayed yet');
    await page.click(`${MOUNT} .tr-sample`);
    await page.waitForSelector(`${MOUNT} .tr-table`);
    assert.equal(await page.textContent(`${MOUNT} .tr-rerun`), lang === 'en' ? 'Replay again' : 'Reproduzir de novo');
    // The sample's broken lines are said to be broken on purpose; a file's are not.
    assert.match(await page.textContent(`${MOUNT} .tr-sample-malformed`), lang === 'en' ? /^The sample has these lines broken on purpose/ : /^A amostra tem essas linhas quebradas de propósito/);
    const requests = [];
    page.context().on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
    await setPolicy(page, 4, 0.5, 'keys:95%');
    await page.setInputFiles(`${MOUNT} .tr-file`, file);
    await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.report?.lines === 3000);
    await page.waitForSelector(`${MOUNT} .tr-table`);

    const report = await page.evaluate(() => window.bucketlab.traffic.outcome.report);
    assert.deepEqual(report, expected, 'the page\'s report is the command\'s');
    const rows = await page.$$eval(`${MOUNT} .tr-table tbody tr`, (trs) => trs.map((tr) => ({
      key: tr.dataset.key, requests: Number(tr.dataset.requests), limited: Number(tr.dataset.limited),
    })));
    assert.deepEqual(rows, expected.byKey, 'the table lists every client with the command\'s counts');
    const lines = await page.$$eval(`${MOUNT} .tr-malformed li`, (lis) => lis.map((li) => [Number(li.dataset.line), li.textContent]));
    assert.deepEqual(lines.map(([n]) => n), [3, 250]);
    assert.match(lines[0][1], lang === 'en' ? /^line 3: / : /^linha 3: /);
    assert.equal(await page.locator(`${MOUNT} .tr-sample-malformed`).count(), 0);
    assert.deepEqual(requests, [], 'no request while the file is replayed');

    // Sorting by a column, announced with aria-sort.
    await page.click(`${MOUNT} .tr-sort[data-column="limited"]`);
    const sorted = await page.$$eval(`${MOUNT} .tr-table tbody tr`, (trs) => trs.map((tr) => Number(tr.dataset.limited)));
    assert.deepEqual(sorted, [...sorted].sort((a, b) => b - a));
    assert.equal(await page.getAttribute(`${MOUNT} th:has(.tr-sort[data-column="limited"])`, 'aria-sort'), 'descending');
    await page.click(`${MOUNT} .tr-sort[data-column="limited"]`);
    assert.equal(await page.getAttribute(`${MOUNT} th:has(.tr-sort[data-column="limited"])`, 'aria-sort'), 'ascending');
    // The drawn arrow is not in the button's name: aria-sort says the order.
    const label = await page.textContent(`${MOUNT} .tr-sort[data-column="limited"]`);
    assert.equal(await page.locator(`${MOUNT} th[aria-sort="ascending"]`).getByRole('button', { name: label, exact: true }).count(), 1);

    // The busiest client plays in the diagram.
    await page.click(`${MOUNT} .tr-play`);
    await page.waitForFunction(() => document.querySelector('#traffic-lab .tr-play-note').textContent !== '');
    const scenario = await page.evaluate(() => window.bucketlab.diagram.scenario);
    assert.match(scenario, /^1_4_0\.5_4_/, 'the diagram holds the policy and the client\'s requests');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('traffic: another limiter gives the command\'s counts for it, and a note instead of the token bucket\'s exports', async () => {
  const file = join(dir, 'access-sliding-log.log');
  writeFileSync(file, generatedLog(3000));
  const expected = cliReport(file, ['--algorithm', 'sliding-log', '--capacity', '4', '--refill-rate', '0.5', '--recommend', 'keys:95%']);
  const bucket = cliReport(file, ['--capacity', '4', '--refill-rate', '0.5', '--recommend', 'keys:95%']);
  assert.notEqual(expected.limited, bucket.limited, 'the two limiters refuse differently on this log');

  const page = await openTraffic('en.html');
  await page.selectOption(`${MOUNT} .tr-field--algorithm select`, 'sliding-log');
  await setPolicy(page, 4, 0.5, 'keys:95%');
  await page.setInputFiles(`${MOUNT} .tr-file`, file);
  await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.report?.lines === 3000);
  await page.waitForSelector(`${MOUNT} .tr-table`);
  assert.deepEqual(await page.evaluate(() => window.bucketlab.traffic.outcome.report), expected);
  assert.match(await page.textContent(`${MOUNT} .tr-summary`), new RegExp(`: ${expected.limited.toLocaleString('en')} would have gotten a 429 \\(Sliding window \\(log\\), B = 4, r = 0\\.5/s\\)\\.$`));
  assert.match(await page.textContent(`${MOUNT} .tr-algorithm-note`), /^The table and the timeline count the refusals of the limiter chosen \(Sliding window \(log\)\)/);
  assert.equal(await page.locator(`${MOUNT} .tr-exports`).count(), 0, 'no token-bucket export for another limiter');

  // The recommendation is a token bucket's: applying it switches the limiter back and exports it.
  // From the keyboard: the button goes with the old results; the new summary takes the focus.
  await page.focus(`${MOUNT} .tr-apply`);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${MOUNT} .tr-exports`);
  assert.equal(await page.evaluate(() => document.activeElement.className), 'tr-summary', 'focus on the new results, not the body');
  // Read out as it takes the focus: the status line does not say the same again.
  assert.equal(await page.textContent(`${MOUNT} .tr-status`), '');
  assert.equal(await page.inputValue(`${MOUNT} .tr-field--algorithm select`), 'token-bucket');
  assert.equal(await page.locator(`${MOUNT} .tr-algorithm-note`).count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// One of everything: the sentences that count take their singular (they said "1 lines could not
// be read", "1 requests from 1 clients").
for (const [path, words] of [
  ['', {
    summary: /^2 linhas, 1 requisição de 1 cliente \(combined\); teriam levado 429: 0 \(Balde de tokens, B = 10, r = [\d,]+\/s\)\.$/,
    malformed: '1 linha não pôde ser lida:',
    caption: /^1 requisição em /,
    played: 'O diagrama agora tem a única requisição de 192.0.2.1, parada no começo: avance passo a passo no diagrama.',
    oneLine: /^1 linha, 1 requisição de 1 cliente \(combined\);/,
  }],
  ['en.html', {
    summary: /^2 lines, 1 request from 1 client \(combined\): 0 would have gotten a 429 \(Token bucket, B = 10, r = [\d.]+\/s\)\.$/,
    malformed: '1 line could not be read:',
    caption: /^1 request over /,
    played: 'The diagram now holds 192.0.2.1\'s only request, stopped at the start: step through it in the diagram.',
    oneLine: /^1 line, 1 request from 1 client \(combined\):/,
  }],
]) {
  test(`traffic (${path || 'index.html'}): one request, one client, one unreadable line are said in the singular`, async () => {
    const request = '192.0.2.1 - - [14/Nov/2023:22:13:20 +0000] "GET / HTTP/1.1" 200 12 "-" "test/1.0"';
    const file = join(dir, `one-${path || 'pt'}.log`);
    writeFileSync(file, `${request}\nthis is not a log line\n`);
    const page = await openTraffic(path);
    await page.selectOption(`${MOUNT} .tr-field--format select`, 'combined');
    await page.setInputFiles(`${MOUNT} .tr-file`, file);
    await page.waitForSelector(`${MOUNT} .tr-table`);
    const report = await page.evaluate(() => window.bucketlab.traffic.outcome.report);
    assert.deepEqual([report.lines, report.requests, report.keys, report.malformed, report.limited], [2, 1, 1, 1, 0]);
    assert.match(await page.textContent(`${MOUNT} .tr-summary`), words.summary);
    assert.equal(await page.textContent(`${MOUNT} .tr-malformed-title`), words.malformed);
    assert.match(await page.textContent(`${MOUNT} .tr-timeline .tr-note`), words.caption);
    await page.click(`${MOUNT} .tr-play`);
    await page.waitForFunction(() => document.querySelector('#traffic-lab .tr-play-note').textContent !== '');
    assert.equal(await page.textContent(`${MOUNT} .tr-play-note`), words.played);

    const single = join(dir, `single-${path || 'pt'}.log`);
    writeFileSync(single, `${request}\n`);
    await page.setInputFiles(`${MOUNT} .tr-file`, single);
    await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.report?.lines === 1);
    await page.waitForSelector(`${MOUNT} .tr-table`);
    assert.match(await page.textContent(`${MOUNT} .tr-summary`), words.oneLine);
    assert.equal(await page.locator(`${MOUNT} .tr-malformed-title`).count(), 0);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

// The sample's busiest client spans over a minute, more than the diagram's timeline (20 s before
// its live moment): what goes in the diagram is its first 20 s, so the reader reaches its very start
// and steps forward through it, and the page takes them there (the diagram is far above).
// On a phone, where the sections between grow as the page scrolls past them and the scroll must
// be corrected on the way.
test('traffic: "play in the diagram" takes the reader to the diagram at the replay\'s start, all of it within reach', async () => {
  const page = await openTraffic('', { viewport: { width: 375, height: 812 } });
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForSelector(`${MOUNT} .tr-play`);
  const trace = await page.evaluate(() => window.bucketlab.traffic.outcome.trace);
  assert.ok(trace.admitted.length * trace.barSeconds > 20, 'the client\'s requests span more than the timeline');
  await page.click(`${MOUNT} .tr-play`);

  // Taken there: the bucket in view, and the focus on a control in view with it (on a phone
  // where the timeline is far below the bucket, the notice above it, which says how to play it).
  await replayShown(page);
  // The note left in the section says how much went in and links to the diagram.
  assert.match(await page.textContent(`${MOUNT} .tr-play-note`),
    new RegExp(`^O diagrama agora tem as primeiras ${trace.scenarioRequests} das ${trace.requests.toLocaleString('pt-BR')} requisições de ${trace.key.replaceAll('.', '\\.')} \\(cabem nele os primeiros 20 s`));
  assert.equal(await page.getAttribute(`${MOUNT} .tr-play-note a`, 'href'), '#diagrama');
  // Said once, by the diagram's notice where the reader is taken: the note here is not a live region.
  assert.equal(await page.getAttribute(`${MOUNT} .tr-play-note`, 'role'), null);
  assert.equal(await page.getAttribute(`${MOUNT} .tr-play-note`, 'aria-live'), null);
  // The client's timeline says how many were refused, not only how many came.
  const refused = trace.limited.reduce((sum, n) => sum + n, 0);
  assert.match(await page.textContent(`${MOUNT} .tr-timeline .tr-note`), new RegExp(`\\(recusadas: ${refused.toLocaleString('pt-BR').replace('.', '\\.')}\\)`));

  // At its start, stopped; Home goes no lower; the whole replay lies within the timeline.
  const scrub = '#bucket-widget .bl-scrub';
  const end = Number((await page.evaluate(() => window.bucketlab.diagram.scenario)).split('_')[4]);
  assert.ok(end <= 20, `the replay ends by 20 s (end: ${end})`);
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.viewTime), 0, 'shown at its first moment');
  // The diagram's notice says so: not the words for a moment reached on the other page.
  assert.match(await page.textContent('#replay-notice'), /^Uma gravação está carregada no diagrama abaixo \(seção 5\), parada no primeiro momento\./);
  assert.equal(Number(await page.getAttribute(scrub, 'aria-valuemin')), 0);
  await page.focus(scrub);
  await page.keyboard.press('Home');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.viewTime), 0);
  // Stepping forward walks it.
  await page.keyboard.press('PageUp');
  await page.waitForFunction(() => window.bucketlab.diagram.viewTime > 0);
  assert.ok(await page.evaluate(() => window.bucketlab.diagram.traveling), 'still in the replay, a second in');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('traffic: on a phone and a laptop every choice of each menu is shown whole (pt-BR and en, 375 and 1280 px)', async () => {
  for (const [path, width] of [['', 375], ['en.html', 375], ['', 1280], ['en.html', 1280]]) {
    const page = await openPage(env.browser, { viewport: { width, height: 812 } });
    await page.goto(env.server.url + path);
    await loadPart(page, MOUNT, 'tr-ready');
    const cut = await page.$eval(`${MOUNT} .tr-form`, (form) => {
      const context = document.createElement('canvas').getContext('2d');
      const menus = [...form.querySelectorAll('select')].flatMap((select) => {
        const style = getComputedStyle(select);
        // The font from its parts: the shorthand is empty where a part has no place in it
        // (tabular figures), and the canvas then measured at its 10 px default.
        context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        // Room for the text: the box less its padding and the arrow (about 1.5 em).
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 1.5 * parseFloat(style.fontSize);
        return [...select.options].filter((o) => context.measureText(o.text).width > room).map((o) => `${o.text} (${Math.round(room)} px)`);
      });
      // The choices made with radio buttons (the targets): each name inside the form, none cut.
      const right = form.getBoundingClientRect().right;
      const choices = [...form.querySelectorAll('input[type="radio"] + label')]
        .filter((label) => label.scrollWidth > label.clientWidth + 0.5 || label.getBoundingClientRect().right > right + 0.5)
        .map((label) => label.textContent);
      return [...menus, ...choices];
    });
    assert.deepEqual(cut, [], `${path || 'index.html'}, ${width} px: options cut short`);
    assert.equal(await page.locator(`${MOUNT} .tr-field--target input[type="radio"]`).count(), 4, 'the four targets');
    await page.context().close();
  }
});

test('traffic: a client key holding markup stays text in the note of "play in the diagram", whose one link is the sentence\'s own', async () => {
  const key = 'x<a>clicky</a>y';
  const csv = `time,key\n${Array.from({ length: 30 }, (_, i) => `${1700000000 + i},${key}`).join('\n')}\n`;
  const page = await openTraffic('en.html');
  await page.setInputFiles(`${MOUNT} .tr-file`, { name: 'keys.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.waitForSelector(`${MOUNT} .tr-play`);
  await page.click(`${MOUNT} .tr-play`);
  await page.waitForFunction((m) => document.querySelector(`${m} .tr-play-note`)?.textContent, MOUNT);
  const note = await page.evaluate((m) => {
    const box = document.querySelector(`${m} .tr-play-note`);
    return { text: box.textContent, links: [...box.querySelectorAll('a')].map((a) => a.textContent) };
  }, MOUNT);
  assert.ok(note.text.includes(`holds ${key}'s first`), note.text);
  assert.deepEqual(note.links, ['diagram']);
  await page.context().close();
});

test('traffic: a client key is shown cut, and a character that would reorder its row as its code, in the table and the note', async () => {
  const long = 'k'.repeat(2000);
  const evil = '\u202e1 si B';
  const csv = `time,key\n${[long, evil].flatMap((key) => Array.from({ length: 20 }, (_, i) => `${1700000000 + i},${key}`)).join('\n')}\n`;
  const page = await openTraffic('en.html');
  await page.setInputFiles(`${MOUNT} .tr-file`, { name: 'keys.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.waitForSelector(`${MOUNT} .tr-table`);
  const shown = await page.$$eval(`${MOUNT} .tr-table .tr-key-text`, (cells) => cells.map((c) => c.textContent).sort());
  assert.deepEqual(shown, ['\\u{202e}1 si B', `${'k'.repeat(40)}…`]);
  assert.equal(await page.getAttribute(`${MOUNT} .tr-table tr[data-key="${evil}"] .tr-follow`, 'aria-label'), "Timeline of \\u{202e}1 si B");
  // The numbers stay near their box (it scrolls sideways a little for a long key, by design), not
  // thousands of pixels to the right of a 2,000-character key.
  const [table, box] = await page.$eval(`${MOUNT} .tr-table`, (t) => [t.scrollWidth, t.parentElement.clientWidth]);
  assert.ok(table < 1.5 * box, `${table} px in a box of ${box}`);
  await page.click(`${MOUNT} .tr-play`);
  await page.waitForFunction((m) => document.querySelector(`${m} .tr-play-note`)?.textContent, MOUNT);
  assert.ok(!(await page.textContent(`${MOUNT} .tr-play-note`)).includes('\u202e'));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/** Serves the next replay worker with `ReplayJob.prototype[method]` trapping, as a log too large
 * for a tab's memory makes the module trap. */
async function trapWorkerOnce(page, method) {
  const worker = new URL('lesson/traffic/worker.js', env.server.url).href;
  await page.route(worker, async (route) => {
    const real = await (await route.fetch()).text();
    const trap = `\nReplayJob.prototype.${method} = () => { throw new WebAssembly.RuntimeError('memory access out of bounds'); };\n`;
    await route.fulfill({ body: real + trap, contentType: 'text/javascript' });
  }, { times: 1 });
}

test('traffic: a replay whose module traps (out of memory) says so, and the next run starts a new worker that works', async () => {
  const page = await openTraffic('en.html');
  // The first worker's module traps as a log too large for the tab's memory makes it trap.
  await trapWorkerOnce(page, 'feed');
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForFunction((m) => document.querySelector(`${m} .tr-error`)?.textContent, MOUNT);
  assert.match(await page.textContent(`${MOUNT} .tr-error`), /^The replay stopped: this log needs more memory than a browser tab gives it \(memory access out of bounds\)\. The next run starts afresh/);
  // The next run: a new worker, the real module, a result.
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForSelector(`${MOUNT} .tr-table`);
  assert.equal(await page.textContent(`${MOUNT} .tr-error`), '');
  await page.context().close();
});

test("traffic: a trap while drawing one key's timeline clears the results it came from, and a new run works", async () => {
  const page = await openTraffic('en.html');
  await trapWorkerOnce(page, 'trace');
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForSelector(`${MOUNT} .tr-table`);
  await page.click(`${MOUNT} .tr-table tbody tr:nth-child(2) .tr-follow`);
  await page.waitForFunction((m) => document.querySelector(`${m} .tr-error`)?.textContent, MOUNT);
  assert.match(await page.textContent(`${MOUNT} .tr-error`), /^The replay stopped: this log needs more memory/);
  assert.equal(await page.locator(`${MOUNT} .tr-follow`).count(), 0, 'no Timeline button asks the dropped worker');
  assert.equal(await page.getAttribute(`${MOUNT} .tr-sample`, 'aria-disabled'), 'false');
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForSelector(`${MOUNT} .tr-table`);
  await page.click(`${MOUNT} .tr-table tbody tr:nth-child(2) .tr-follow`);
  await page.waitForFunction((m) => document.querySelector(`${m} .tr-sample`).getAttribute('aria-disabled') === 'false' && document.querySelector(`${m} .tr-timeline h3`), MOUNT);
  assert.equal(await page.textContent(`${MOUNT} .tr-error`), '');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('traffic: a Key field the log refuses is quoted cut, as every message quotes a value', async () => {
  const page = await openTraffic('en.html');
  await page.fill(`${MOUNT} .tr-field--key input`, `nonsense${'x'.repeat(5000)}`);
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForFunction((m) => document.querySelector(`${m} .tr-error`)?.textContent, MOUNT);
  const said = await page.textContent(`${MOUNT} .tr-error`);
  assert.match(said, /“nonsensex{32}…”/);
  assert.ok(said.length < 400, `${said.length} characters`);
  await page.context().close();
});

test('traffic: cancel stops a long replay; garbage and an empty file get a clear message', async () => {
  // About 60 MB: long enough to be caught part way.
  const big = join(dir, 'big.log');
  const chunk = generatedLog(20000, 5);
  const stream = createWriteStream(big);
  for (let i = 0; i < 15; i++) stream.write(chunk);
  await new Promise((resolve) => stream.end(resolve));
  const page = await openTraffic('en.html');
  // A run's gist is said, not shown (its summary shows it); a cancel after it is shown again.
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForSelector(`${MOUNT} .tr-summary`);
  await page.setInputFiles(`${MOUNT} .tr-file`, big);
  // Pressed in the page at a moment the replay is under way (part read, still busy), so that it
  // cannot have ended first, however fast the machine.
  await page.waitForFunction(() => {
    const busy = !document.querySelector('#traffic-lab .tr-busy').hidden;
    if (!busy || !(Number(document.querySelector('#traffic-lab .tr-progress').value) > 0)) return false;
    // As from the keyboard: the button focused, then pressed.
    const cancel = document.querySelector('#traffic-lab .tr-cancel');
    cancel.focus();
    cancel.click();
    return true;
  });
  assert.equal(await page.textContent(`${MOUNT} .tr-status`), 'Canceled. Nothing was kept.');
  // The Cancel button hid with the progress: the focus is on "Replay", not on the page's body.
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('tr-rerun')), true);
  assert.ok((await page.locator(`${MOUNT} .tr-status`).boundingBox()).height > 1, 'the cancel is shown');
  assert.equal(await page.locator(`${MOUNT} .tr-table`).count(), 0, 'no result from a cancelled replay');
  assert.equal(await page.locator(`${MOUNT} .tr-busy`).isHidden(), true);

  // Another file chosen while a run is under way replaces it: the new file's replay, whole (the
  // two runs once shared the worker's state, and the second said "The file is empty").
  const small = join(dir, 'small.log');
  writeFileSync(small, generatedLog(700, 9));
  // The same file again, as the chooser's click (which forgets the last choice) lets it run.
  await page.$eval(`${MOUNT} .tr-file`, (input) => { input.value = ''; });
  await page.setInputFiles(`${MOUNT} .tr-file`, big);
  await page.waitForFunction(() => !document.querySelector('#traffic-lab .tr-busy').hidden && Number(document.querySelector('#traffic-lab .tr-progress').value) > 0);
  await page.setInputFiles(`${MOUNT} .tr-file`, small);
  await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.report?.lines === 700 && document.querySelector('#traffic-lab .tr-table'));
  assert.equal(await page.textContent(`${MOUNT} .tr-error`), '');

  const garbage = join(dir, 'garbage.bin');
  const random = rng(3);
  writeFileSync(garbage, Buffer.from(Array.from({ length: 40000 }, () => Math.floor(random() * 256))));
  await page.setInputFiles(`${MOUNT} .tr-file`, garbage);
  await page.waitForFunction(() => document.querySelector('#traffic-lab .tr-error').textContent !== '');
  assert.match(await page.textContent(`${MOUNT} .tr-error`), /^This does not look like an access log: none of the first \d+ lines is text \(UTF-8\): a log compressed with something other than gzip \(the only compression read\), or not a log at all\.$/);
  // The file is at fault, not a setting: no control is marked, the Format menu least of all.
  assert.equal(await page.locator(`${MOUNT} [aria-invalid]`).count(), 0);
  // Text, but no log: the Format menu may name what it is.
  const prose = join(dir, 'prose.txt');
  writeFileSync(prose, 'Lorem ipsum dolor sit amet.\n'.repeat(40));
  await page.setInputFiles(`${MOUNT} .tr-file`, prose);
  await page.waitForFunction(() => /menu/.test(document.querySelector('#traffic-lab .tr-error').textContent));
  assert.equal(await page.textContent(`${MOUNT} .tr-error`), 'This does not look like an access log: none of combined, common, JSON lines, ALB or CSV matches its first lines. If it is one of them, choose it in the Format menu.');

  const empty = join(dir, 'empty.log');
  writeFileSync(empty, '');
  await page.setInputFiles(`${MOUNT} .tr-file`, empty);
  await page.waitForFunction(() => /empty/.test(document.querySelector('#traffic-lab .tr-error').textContent));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const [path, words] of [
  ['', {
    header: 'O arquivo tem um cabeçalho CSV, mas nenhuma requisição depois dele: acrescente linhas tempo,chave[,custo] abaixo do cabeçalho.',
    key: /^Uma configuração não combina com este log: o campo Chave “ip”: nenhuma das primeiras linhas JSON tem algum destes campos: remote_addr, .*\. Escreva field:NOME no campo Chave, com o nome do campo que identifica o cliente\.$/,
  }],
  ['en.html', {
    header: 'The file has a CSV header but no request after it: add time,key[,cost] lines under the header.',
    key: /^A setting does not fit this log: the Key field “ip”: none of the first JSON lines has any of .*\. Write field:NAME in the Key field, with the name of the field that holds the client\.$/,
  }],
]) {
  test(`traffic (${path || 'index.html'}): a CSV header alone, or a field to name, is said in the page's words, naming no flag`, async () => {
    const page = await openTraffic(path);
    const error = `${MOUNT} .tr-error`;
    const header = join(dir, `header-${path || 'pt'}.csv`);
    writeFileSync(header, 'time,key\n');
    await page.setInputFiles(`${MOUNT} .tr-file`, header);
    await page.waitForFunction((s) => document.querySelector(s).textContent !== '', error);
    assert.equal(await page.textContent(error), words.header);

    const json = join(dir, `nameless-${path || 'pt'}.jsonl`);
    writeFileSync(json, '{"time": 1, "who": "a"}\n{"time": 2, "who": "b"}\n');
    await page.setInputFiles(`${MOUNT} .tr-file`, json);
    await page.waitForFunction((s) => !/CSV/.test(document.querySelector(s).textContent) && document.querySelector(s).textContent !== '', error);
    const message = await page.textContent(error);
    assert.match(message, words.key);
    assert.doesNotMatch(message, /--/, 'no command-line flag');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

/** English words a setup error may hold when it is not translated (the values quoted aside). */
const ENGLISH_WORDS = /\b(none|of|the|field|fields|line|lines|column|has|have|is|are|must|allowed|needs|whole|number|finite|greater|than|window|would|be|keyed|by|only|requests)\b/i;

test('traffic (index.html): every kind of setup error is said in Portuguese, the core\'s reason too', async () => {
  const page = await openTraffic('');
  const error = `${MOUNT} .tr-error`;
  const csv = join(dir, 'two-columns.csv');
  writeFileSync(csv, '1700000000,alice\n1700000001,bob\n1700000002,alice\n');
  const json = join(dir, 'who.jsonl');
  writeFileSync(json, '{"time": 1700000000, "who": "a"}\n{"time": 1700000001, "who": "b"}\n');
  const combined = join(dir, 'combined.log');
  writeFileSync(combined, generatedLog(2));
  const cases = [
    // Refused by the log.
    [{ key: 'column:5' }, csv, 'Uma configuração não combina com este log: o campo Chave “column:5”: nenhuma das 3 primeiras linhas tem uma coluna 5; elas têm no máximo 2, então a chave só pode ser column:2.'],
    [{ key: 'field:user' }, json, 'Uma configuração não combina com este log: o campo Chave “field:user”: nenhuma das primeiras linhas JSON tem um campo “user”; elas têm time, who.'],
    [{ key: 'column:3' }, combined, 'Uma configuração não combina com este log: o campo Chave “column:3”: em linhas combined, a chave é ip, o endereço do cliente.'],
    [{ format: 'json' }, combined, 'Isto não parece um log de acesso: o menu Formato “json”: nenhuma das 2 primeiras linhas é um objeto JSON.'],
    [{ format: 'alb' }, csv, 'Isto não parece um log de acesso: o menu Formato “alb”: nenhuma das 3 primeiras linhas se lê como alb; elas se leem como csv.'],
    // Refused before reading: the settings themselves.
    [{ key: 'usuario' }, csv, 'Uma configuração não é permitida: o campo Chave “usuario”: permitidos: ip, field:NOME (um campo JSON) ou column:N (uma coluna CSV, a partir da 2).'],
    [{ key: 'column:1' }, csv, 'Uma configuração não é permitida: o campo Chave “column:1”: column:N precisa de um número inteiro de 2 a 64 (a coluna 1 é o tempo).'],
    [{ capacity: '0' }, csv, 'Uma configuração não é permitida: o campo Capacidade B “0”: B deve ser um número finito maior que 0.'],
    // An empty field is said to be empty, not read as 0.
    [{ capacity: '' }, csv, 'Uma configuração não é permitida: o campo Capacidade B está vazio: B deve ser um número finito maior que 0.'],
    [{ rate: '' }, csv, 'Uma configuração não é permitida: o campo Taxa r está vazio: r deve ser um número finito maior ou igual a 0.'],
    [{ capacity: '2.5', algorithm: 'fixed-window' }, csv, 'Uma configuração não é permitida: o campo Capacidade B “2,5”: Janela fixa conta requisições inteiras: um número inteiro de 1 a 10.000.'],
    [{ rate: '0', algorithm: 'gcra' }, csv, 'Uma configuração não é permitida: o campo Taxa r “0”: GCRA precisa de uma taxa acima de 0: sua janela é B / r.'],
    [{ capacity: '5', rate: '10000', algorithm: 'sliding-log' }, csv, 'Uma configuração não é permitida: o campo Taxa r “10.000”: a janela B / r de Janela deslizante (registro) seria de 0,0005 s; ela deve ir de 0,001 a 86.400 s.'],
  ];
  const defaults = { capacity: '10', rate: '1', algorithm: 'token-bucket', format: '', key: '' };
  let shown = '';
  for (const [settings, file, expected] of cases) {
    const s = { ...defaults, ...settings };
    await page.fill(`${MOUNT} .tr-field--capacity input`, s.capacity);
    await page.fill(`${MOUNT} .tr-field--rate input`, s.rate);
    await page.selectOption(`${MOUNT} .tr-field--algorithm select`, s.algorithm);
    await page.selectOption(`${MOUNT} .tr-field--format select`, s.format);
    await page.fill(`${MOUNT} .tr-field--key input`, s.key);
    await page.setInputFiles(`${MOUNT} .tr-file`, []);
    await page.setInputFiles(`${MOUNT} .tr-file`, file);
    await page.waitForFunction(([sel, before]) => !['', before].includes(document.querySelector(sel).textContent), [error, shown]);
    shown = await page.textContent(error);
    assert.equal(shown, expected, JSON.stringify(settings));
    // Nothing English left: the values quoted and the syntax (field:NOME, time,key[,cost]) aside.
    const words = shown.replace(/“[^”]*”/g, '').replace(/\S*[:,[]\S*/g, '');
    assert.doesNotMatch(words, ENGLISH_WORDS, shown);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// Bad lines of several kinds, as the parsers find them: each reason is the core's code worded in
// the page's language (the command's English is `why`, which the page no longer shows).
const BAD_COMBINED = [
  '192.0.2.1 - - [14/Nov/2023:22:13:20 +0000] "GET / HTTP/1.1" 200 12 "-" "test/1.0"',
  '192.0.2.2 - - [14/Nov/2023 22:13:20] "GET / HTTP/1.1" 200 12 "-" "test/1.0"',
  '192.0.2.3 -',
  '192.0.2.4 - - 14/Nov/2023:22:13:20 +0000 "GET / HTTP/1.1" 200 12 "-" "test/1.0"',
  '192.0.2.5 - - [14/Nov/2023:22:13:21 +0000] "GET / HTTP/1.1" 20x 12 "-" "test/1.0"',
  '192.0.2.6 - - [14/Nov/2023:22:13:22 +0000] "GET / HTTP/1.1" 200 12 "-" "test/1.0',
];
const BAD_JSON = [
  '{"time": 1700000000, "ip": "192.0.2.1"}',
  '{"time": 1700000001, "ip": ',
  '[1, 2]',
  '{"ip": "192.0.2.3"}',
  '{"time": "yesterday", "ip": "192.0.2.4"}',
  '{"time": 1700000002, "ip": null}',
];
// Keyed by column 3: a line with fewer columns says how many it has (a plural entry).
const BAD_CSV = ['1700000000,x,alice', '1700000001,x', '1700000002', '1700000003,x,', 'yesterday,x,bob'];
/** English words a Portuguese reason must not have (the log's own values, quoted, aside). */
const MALFORMED_ENGLISH = /\b(field|line|not|time|missing|expected|closed|neither|nor|is|the|of|key|after|bracketed|quoted|size|number)\b/i;

for (const [path, lang, combined, json, csv] of [
  ['', 'pt-BR', [
    'linha 2: o horário "14/Nov/2023 22:13:20" não está no formato dia/Mês/ano:hh:mm:ss ±hhmm',
    'linha 3: sem o campo de usuário depois do ident',
    'linha 4: horário: era esperado um campo entre colchetes',
    'linha 5: o status "20x" não é um código de 3 dígitos',
    'linha 6: user-agent: um campo entre aspas não foi fechado',
  ], [
    'linha 2: não é JSON (o erro está no byte 27 da linha)',
    'linha 3: um array não é um objeto',
    'linha 4: sem o campo de horário "time"',
    'linha 5: campo de horário "time": "yesterday" não é um timestamp Unix (dígitos com fração opcional, em s, ms, µs ou ns conforme o tamanho), nem uma data e hora RFC 3339, nem a de um servidor web (10/Oct/2000:13:55:36 -0700)',
    'linha 6: o campo da chave "ip" é null, não uma string nem um número',
  ], [
    'linha 2: sem a coluna 3 para a chave (2 colunas)',
    'linha 3: sem a coluna 3 para a chave (1 coluna)',
    'linha 4: a chave (coluna 3) está vazia',
    'linha 5: o horário "yesterday" não é um timestamp Unix (dígitos com fração opcional, em s, ms, µs ou ns conforme o tamanho), nem uma data e hora RFC 3339, nem a de um servidor web (10/Oct/2000:13:55:36 -0700)',
  ]],
  ['en.html', 'en', [
    'line 2: time "14/Nov/2023 22:13:20" is not day/Mon/year:hh:mm:ss ±hhmm',
    'line 3: no user field after the ident',
    'line 4: time: a bracketed field was expected',
    'line 5: status "20x" is not a 3-digit code',
    'line 6: user-agent: a quoted field is not closed',
  ], [
    'line 2: not JSON (it goes wrong at byte 27 of the line)',
    'line 3: an array is not an object',
    'line 4: no time field "time"',
    'line 5: time field "time": "yesterday" is neither an epoch time (digits with an optional fraction, in s, ms, µs or ns by size), an RFC 3339 date and time nor a web server\'s (10/Oct/2000:13:55:36 -0700)',
    'line 6: key field "ip" is null, not a string or a number',
  ], [
    'line 2: no column 3 for the key (2 columns)',
    'line 3: no column 3 for the key (1 column)',
    'line 4: the key (column 3) is empty',
    'line 5: time "yesterday" is neither an epoch time (digits with an optional fraction, in s, ms, µs or ns by size), an RFC 3339 date and time nor a web server\'s (10/Oct/2000:13:55:36 -0700)',
  ]],
]) {
  test(`traffic (${lang}): the reasons lines could not be read are said in the page's language`, async () => {
    const page = await openTraffic(path);
    for (const [format, key, lines, expected] of [['combined', '', BAD_COMBINED, combined], ['json', '', BAD_JSON, json], ['csv', 'column:3', BAD_CSV, csv]]) {
      const file = join(dir, `bad-${lang}.${format}`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      await page.selectOption(`${MOUNT} .tr-field--format select`, format);
      await page.fill(`${MOUNT} .tr-field--key input`, key);
      await page.setInputFiles(`${MOUNT} .tr-file`, []);
      await page.setInputFiles(`${MOUNT} .tr-file`, file);
      await page.waitForFunction((f) => window.bucketlab.traffic?.outcome?.format === f, format);
      await page.waitForSelector(`${MOUNT} .tr-malformed li`);
      const shown = await page.$$eval(`${MOUNT} .tr-malformed li`, (lis) => lis.map((li) => li.textContent));
      assert.deepEqual(shown, expected, format);
      if (lang === 'pt-BR') {
        for (const reason of shown) assert.doesNotMatch(reason.replace(/"[^"]*"/g, ''), MALFORMED_ENGLISH, reason);
      }
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

for (const [path, words] of [
  ['', {
    read: 'Tempos: milissegundos desde 1970 (época Unix). A unidade é deduzida do tamanho dos números: segundos abaixo de 10¹¹, milissegundos a partir de 10¹¹, microssegundos a partir de 10¹⁴, nanossegundos a partir de 10¹⁷.',
    mixed: /^Atenção: os tempos estão em mais de uma unidade: segundos a partir da linha 1 \(39 requisições\), milissegundos na linha 40 \(1 requisição\)\. Cada linha foi lida na sua unidade, .* 1970\. A unidade é deduzida/,
  }],
  ['en.html', {
    read: 'Times: milliseconds since 1970 (Unix epoch). The unit is told by the numbers’ size: seconds below 10¹¹, milliseconds from 10¹¹, microseconds from 10¹⁴, nanoseconds from 10¹⁷.',
    mixed: /^Warning: the times are in more than one unit: seconds from line 1 \(39 requests\), milliseconds on line 40 \(1 request\)\. Each line was read in its own unit, .* 1970\. The unit is told/,
  }],
]) {
  test(`traffic (${path || 'index.html'}): the page says which epoch unit the times were read in, and warns when they mix`, async () => {
    const page = await openTraffic(path);
    await setPolicy(page, 10, 1, 'keys:99%');
    const times = `${MOUNT} .tr-times`;
    const pino = join(dir, `pino-${path || 'pt'}.jsonl`);
    writeFileSync(pino, Array.from({ length: 40 }, (_, i) => `{"time": ${1_700_000_000_000 + 250 * i}, "ip": "10.0.0.${i % 3}"}\n`).join(''));
    await page.setInputFiles(`${MOUNT} .tr-file`, pino);
    await page.waitForSelector(`${MOUNT} .tr-table`);
    assert.equal(await page.textContent(times), words.read);

    // Seconds, and one line of milliseconds (line 40): both replayed, the page names where.
    const mixed = join(dir, `mixed-${path || 'pt'}.csv`);
    writeFileSync(mixed, Array.from({ length: 40 }, (_, i) => `${i === 39 ? 1_700_000_039_000 : 1_700_000_000 + i},client${i % 4}\n`).join(''));
    const expected = cliReport(mixed, ['--capacity', '10', '--refill-rate', '1', '--recommend', 'keys:99%']);
    assert.deepEqual(expected.epochUnits, [
      { unit: 'seconds', requests: 39, firstLine: 1 },
      { unit: 'milliseconds', requests: 1, firstLine: 40 },
    ]);
    await page.setInputFiles(`${MOUNT} .tr-file`, mixed);
    await page.waitForFunction((s) => document.querySelector(s)?.classList.contains('tr-times--mixed'), times);
    assert.deepEqual(await page.evaluate(() => window.bucketlab.traffic.outcome.report), expected);
    assert.match(await page.textContent(times), words.mixed);

    // Dates say nothing of units.
    const dated = join(dir, `dated-${path || 'pt'}.log`);
    writeFileSync(dated, generatedLog(20));
    await page.setInputFiles(`${MOUNT} .tr-file`, dated);
    await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.report?.lines === 20);
    assert.equal(await page.locator(times).count(), 0);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('traffic (en.html): times that go back and whole-second times are said as the command says them', async () => {
  const page = await openTraffic('en.html');
  await setPolicy(page, 10, 2, 'keys:99%');
  // Two servers' logs of one client joined, each in time order: the second goes back 19 s.
  const times = Array.from({ length: 60 }, (_, i) => (1_700_000_000 + i / 3 + 0.01).toFixed(3));
  const joined = join(dir, 'joined.csv');
  writeFileSync(joined, [...times.filter((_, i) => i % 2 === 0), ...times.filter((_, i) => i % 2 === 1)].map((t) => `${t},alice\n`).join(''));
  const expected = cliReport(joined, ['--capacity', '10', '--refill-rate', '2', '--recommend', 'keys:99%']);
  assert.deepEqual(expected.backwards, { requests: 29, firstLine: 31, largestStep: expected.backwards.largestStep });
  await page.setInputFiles(`${MOUNT} .tr-file`, joined);
  await page.waitForSelector(`${MOUNT} .tr-backwards`);
  assert.deepEqual(await page.evaluate(() => window.bucketlab.traffic.outcome.report), expected);
  assert.match(await page.textContent(`${MOUNT} .tr-backwards`),
    /^Warning: 29 requests came earlier than their client’s latest time \(the first on line 31; the largest step back 19 s\)\. .*sort the log by time/);
  assert.equal(await page.locator(`${MOUNT} .tr-whole-seconds`).count(), 0);

  // Whole seconds: the limited counts may be off either way.
  const whole = join(dir, 'whole.csv');
  writeFileSync(whole, Array.from({ length: 30 }, (_, i) => `${1_700_000_000 + Math.floor(i / 5)},bob\n`).join(''));
  await page.setInputFiles(`${MOUNT} .tr-file`, whole);
  await page.waitForSelector(`${MOUNT} .tr-whole-seconds`);
  assert.match(await page.textContent(`${MOUNT} .tr-whole-seconds`), /^The times are whole seconds \(1 s resolution\), so the limited counts may be off either way: .*\(more limited\).*\(fewer\)/);
  assert.equal(await page.locator(`${MOUNT} .tr-backwards`).count(), 0);
  // And the recommendation's B with the burst a second's error may hide: B + r × 1 s, whole.
  const rec = await page.evaluate(() => window.bucketlab.traffic.outcome.report.recommendation);
  assert.equal(await page.textContent(`${MOUNT} .tr-recommendation-margin`),
    `The times are whole seconds: a client may need up to r × 1 s more burst than this replay shows, and B = ${Math.ceil(rec.capacity + rec.refillRate)} covers that.`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// A request no wait would let through (a cost above B; short with r = 0) is among the 429s, and
// said apart with its reason and what to change, as the command's table says it.
for (const [path, words] of [
  ['', {
    cost: 'Dessas, 2 nunca passariam: custam até 9, mais que a capacidade B = 5, e nenhuma espera adianta. Aumente a capacidade ou divida as requisições.',
    refill: 'Dessas, 1 nunca passaria: com taxa de reabastecimento 0, nada volta a encher o balde de um cliente, e nenhuma espera adianta. Aumente a taxa de reabastecimento.',
  }],
  ['en.html', {
    cost: 'Of these, 2 could never pass: they cost up to 9, more than the capacity B = 5, so no wait helps. Raise the capacity or split the requests.',
    refill: 'Of these, 1 could never pass: with a refill rate of 0 nothing refills a client’s bucket, so no wait helps. Raise the refill rate.',
  }],
]) {
  test(`traffic (${path || 'index.html'}): requests that could never pass are counted apart, with their reason`, async () => {
    const page = await openTraffic(path);
    await setPolicy(page, 5, 0, 'keys:99%');
    const file = join(dir, `never-${path || 'pt'}.csv`);
    writeFileSync(file, '1700000000.1,a,7\n1700000000.2,a,9\n1700000000.3,a,3\n1700000000.4,a,3\n1700000001.5,b,1\n');
    const expected = cliReport(file, ['--capacity', '5', '--refill-rate', '0', '--recommend', 'keys:99%']);
    assert.deepEqual([expected.limited, expected.never], [3, { costExceedsCapacity: 2, largestCost: 9, noRefill: 1 }]);
    await page.setInputFiles(`${MOUNT} .tr-file`, file);
    await page.waitForSelector(`${MOUNT} .tr-never`);
    assert.deepEqual(await page.evaluate(() => window.bucketlab.traffic.outcome.report), expected);
    assert.equal(await page.textContent(`${MOUNT} .tr-never--cost`), words.cost);
    assert.equal(await page.textContent(`${MOUNT} .tr-never--refill`), words.refill);

    // Refusals a wait would lift say nothing of never.
    const burst = join(dir, `burst-${path || 'pt'}.csv`);
    writeFileSync(burst, '1700000000.1,a\n1700000000.2,a\n1700000000.3,a\n');
    await setPolicy(page, 1, 1, 'keys:99%');
    await page.setInputFiles(`${MOUNT} .tr-file`, burst);
    await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.report?.requests === 3);
    await page.waitForSelector(`${MOUNT} .tr-table`);
    assert.equal(await page.evaluate(() => window.bucketlab.traffic.outcome.report.limited), 2);
    assert.equal(await page.locator(`${MOUNT} .tr-never`).count(), 0);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('traffic: the burst–rate curve\'s values are a table, its dot\'s B and r in the caption, for a reader who can\'t see the lines', async () => {
  const page = await openTraffic('en.html');
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForSelector(`${MOUNT} .tr-curve`);
  const shown = await page.evaluate((mount) => {
    const figure = document.querySelector(`${mount} .tr-curve`).closest('figure');
    const table = figure.querySelector('details.tr-data table');
    return {
      name: figure.querySelector('svg').getAttribute('aria-label'),
      caption: figure.querySelector('figcaption').textContent,
      heads: [...table.querySelectorAll('thead th')].map((th) => [th.textContent, th.getAttribute('scope')]),
      rows: [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)),
    };
  }, MOUNT);
  const { curves, report } = await page.evaluate(() => window.bucketlab.traffic.outcome);
  assert.equal(shown.name, 'The burst–rate curve', 'the drawing named once, its caption not repeated');
  const rec = report.recommendation;
  assert.match(shown.caption, new RegExp(`The dot is the recommended policy\\. It is at B = ${rec.capacity.toLocaleString('en')}, r = ${rec.refillRate}/s\\.$`));
  assert.deepEqual(shown.heads.map(([text]) => text).slice(0, 4), ['r (per s)', 'median', 'p95', 'p99']);
  assert.ok(shown.heads.every(([, scope]) => scope === 'col'));
  // The round rates of the grid, each row's bursts those of the curve at that rate.
  const fmt = (v, digits) => v.toLocaleString('en', { maximumFractionDigits: digits });
  assert.ok(shown.rows.length >= 15, `${shown.rows.length} rows`);
  for (const row of shown.rows) {
    const round = (r) => [1, 2, 5].some((m) => Math.abs(r / 10 ** Math.floor(Math.log10(r) + 1e-9) - m) < 1e-9);
    const i = curves.rates.findIndex((r) => round(r) && fmt(r, 3) === row[0]);
    assert.ok(i >= 0, `rate ${row[0]} is the curve's`);
    assert.deepEqual(row.slice(1, 4), [curves.median[i], curves.p95[i], curves.p99[i]].map((v) => fmt(v, 2)), `at r = ${row[0]}`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('traffic: each export has a copy button that copies its text and says so', async () => {
  const page = await openTraffic('en.html', { permissions: ['clipboard-read', 'clipboard-write'] });
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForSelector(`${MOUNT} .tr-exports`);
  const ids = await page.$$eval(`${MOUNT} .tr-export`, (xs) => xs.map((x) => x.dataset.export));
  assert.deepEqual(ids, ['nginx', 'envoy', 'yaml', 'redis']);
  // A screen reader tells the four "Copy" buttons apart by their files' names, and names each file.
  const told = await page.evaluate(async (mount) => {
    const names = (id) => id.split(' ').map((part) => document.getElementById(part)?.textContent).join(' ');
    return [...document.querySelectorAll(`${mount} .tr-export`)].map((x) => [
      names(x.querySelector('button.tr-copy').getAttribute('aria-describedby')),
      x.querySelector('pre').getAttribute('role'),
      names(x.querySelector('pre').getAttribute('aria-labelledby')),
    ]);
  }, MOUNT);
  assert.deepEqual(told, [['nginx', 'region', 'nginx'], ['Envoy', 'region', 'Envoy'], ['The lesson\'s YAML policy', 'region', 'The lesson\'s YAML policy'], ['The Redis script\'s arguments', 'region', 'The Redis script\'s arguments']]);
  const nginx = page.locator(`${MOUNT} .tr-export[data-export=nginx]`);
  const button = nginx.locator('button.tr-copy');
  assert.equal(await button.textContent(), 'Copy');
  await button.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('copy-announcer').textContent !== '');
  assert.equal(await button.textContent(), 'Copied!');
  assert.equal(await page.textContent('#copy-announcer'), 'nginx copied to the clipboard.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await nginx.locator('pre').textContent());
  assert.match(copied, /limit_req_zone .* rate=/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const colorScheme of ['light', 'dark']) {
  test(`traffic: axe finds no violations in the sample's results (${colorScheme})`, async () => {
    const page = await openTraffic('', { colorScheme });
    await page.click(`${MOUNT} .tr-sample`);
    await page.waitForSelector(`${MOUNT} .tr-exports`);
    // The files' comments are the command's English: the Portuguese page says so, with <code> as an element.
    assert.match(await page.textContent(`${MOUNT} .tr-export-intro`), /^Cada arquivo é o que bucketlab replay --export nginx .* com os comentários em inglês;/);
    assert.equal(await page.textContent(`${MOUNT} .tr-export-intro code`), 'bucketlab replay --export nginx');
    // The curve's values too, opened (a table that scrolls sideways on a phone).
    await page.evaluate((mount) => { document.querySelector(`${mount} details.tr-data`).open = true; }, MOUNT);
    const { violations, passes } = await new AxeBuilder({ page }).include('#seu-trafego').analyze();
    assert.ok(passes.length > 10, 'axe ran its rules');
    assert.deepEqual(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`), []);

    // The legend's swatches are their lines' colours and dashes, and the axes' labels fit the chart.
    const look = await page.evaluate(() => {
      const series = ['median', 'p95', 'p99', 'heaviest'].map((name) => {
        const line = getComputedStyle(document.querySelector(`.tr-line--${name}`));
        const swatch = getComputedStyle(document.querySelector(`.tr-legend--${name}`), '::before');
        return { name, line: line.stroke, dashed: line.strokeDasharray !== 'none', swatch: swatch.borderTopColor, style: swatch.borderTopStyle };
      });
      const chart = document.querySelector('.tr-curve');
      const width = chart.viewBox.baseVal.width;
      const outside = [...chart.querySelectorAll('text')].map((t) => t.getBBox()).filter((b) => b.x < 0 || b.x + b.width > width).length;
      return { series, outside };
    });
    for (const { name, line, dashed, swatch, style } of look.series) {
      assert.equal(swatch, line, `the ${name} swatch has its line's colour`);
      assert.equal(style !== 'solid', dashed, `the ${name} swatch is ${style}, its line is ${dashed ? 'dashed' : 'solid'}`);
    }
    assert.equal(new Set(look.series.map((s) => s.line)).size, 4, 'four colours');
    assert.equal(look.outside, 0, 'every label of the curve is inside its chart');
    await page.context().close();
  });
}

test('traffic: an export that cannot be the policy replayed says so, and none is given where the tool cannot express it', async () => {
  const file = join(dir, 'short.csv');
  writeFileSync(file, '1700000000,a\n1700000001,a\n1700000002,b\n');
  for (const [path, words] of [['en.html', { none: /^Note: nginx's slowest rate is 1r\/m \(0[.,]016\/s\), faster than the r = 0[.,]001\/s replayed; no nginx configuration is given\.$/, never: /^Note: Envoy always refills a bucket, so it cannot enforce r = 0/ }],
    ['', { none: /^Observação: a taxa mais lenta do nginx é 1r\/m \(0,016\/s\), mais rápida que a r = 0,001\/s reproduzida/, never: /^Observação: o Envoy sempre reabastece o balde/ }]]) {
    const page = await openTraffic(path);
    await setPolicy(page, 7, 0.001, 'keys:99%');
    await page.setInputFiles(`${MOUNT} .tr-file`, file);
    await page.waitForSelector(`${MOUNT} .tr-exports`);
    // r = 0.001/s: nginx's slowest rate is 1r/m, so no nginx configuration; Envoy's is exact.
    const nginx = page.locator(`${MOUNT} .tr-export[data-export=nginx]`);
    assert.equal(await nginx.locator('pre').count(), 0, 'no nginx configuration');
    assert.equal(await nginx.locator('button.tr-copy').count(), 0, 'nothing to copy');
    assert.match(await nginx.locator('.tr-export-caveat').textContent(), words.none);
    const envoy = page.locator(`${MOUNT} .tr-export[data-export=envoy]`);
    assert.match(await envoy.locator('pre').textContent(), /tokens_per_fill: 1\n +fill_interval: 1000s\n/);
    assert.equal(await envoy.locator('.tr-export-caveat').count(), 0, 'exact');

    // r = 0.3/s: Envoy fills a token every 3333 ms, 1000/3333 per second. The note quotes that rate
    // with the digits the file's own comment gives it, in the page's decimal style.
    await setPolicy(page, 2, 0.3, 'keys:99%');
    await page.click(`${MOUNT} .tr-rerun`);
    await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.exports?.[1]?.caveats?.[0]?.code === 'rateRounded');
    const written = String(1000 / 3333);
    assert.equal(written, '0.3000300030003');
    assert.ok((await envoy.locator('pre').textContent()).includes(`is ${written}/s in Envoy`), 'the file says the rate with every digit');
    assert.ok((await envoy.locator('.tr-export-caveat').textContent()).includes(path ? written : written.replace('.', ',')), 'so does the note');

    // r = 0: neither nginx nor Envoy can be a bucket that never refills.
    await setPolicy(page, 2, 0, 'keys:99%');
    await page.click(`${MOUNT} .tr-rerun`);
    await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.exports?.[1]?.text === null);
    await page.waitForSelector(`${MOUNT} .tr-export[data-export=envoy] .tr-export-caveat`);
    assert.equal(await page.locator(`${MOUNT} .tr-export pre`).count(), 2, 'the YAML policy and the script only');
    assert.match(await envoy.locator('.tr-export-caveat').textContent(), words.never);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('traffic: a forced format that fits no line, an empty field, a byte order mark, every bad line listed and a tiny share are said as they are', async () => {
  const page = await openTraffic('en.html');
  const error = `${MOUNT} .tr-error`;
  const csv = join(dir, 'forced.csv');
  writeFileSync(csv, '1700000000,a\n1700000001,a\n');
  // --format alb on a CSV log: refused naming the format and what the lines read as (not 0 requests).
  await page.selectOption(`${MOUNT} .tr-field--format select`, 'alb');
  await page.setInputFiles(`${MOUNT} .tr-file`, csv);
  await page.waitForFunction((sel) => document.querySelector(sel).textContent !== '', error);
  assert.equal(await page.textContent(error), 'This does not look like an access log: the Format menu “alb”: none of the first 2 lines reads as alb; they read as csv.');
  await page.selectOption(`${MOUNT} .tr-field--format select`, '');

  // Bucket B cleared: said to be empty, not “0”.
  await page.fill(`${MOUNT} .tr-field--capacity input`, '');
  await page.click(`${MOUNT} .tr-rerun`);
  await page.waitForFunction((sel) => document.querySelector(sel).textContent.includes('empty'), error);
  assert.equal(await page.textContent(error), 'A setting is not allowed: the Capacity B field is empty: B must be a finite number greater than 0.');
  // A comma that could group thousands: both readings, not 1.
  await page.fill(`${MOUNT} .tr-field--capacity input`, '1,000');
  await page.click(`${MOUNT} .tr-rerun`);
  await page.waitForFunction((sel) => document.querySelector(sel).textContent.includes('1,000'), error);
  assert.equal(await page.textContent(error), 'A setting is not allowed: the Capacity B field “1,000” could mean 1000 or 1.000 (a comma groups thousands or marks decimals): B must be a finite number greater than 0.');
  // The refused field is marked and described by the error, as the core's refusal of a number is.
  const capacityField = `${MOUNT} .tr-field--capacity input`;
  const marked = () => page.$$eval(`${MOUNT} [aria-invalid]`, (fields) => fields.map((f) => [f.closest('.tr-field').className, f.getAttribute('aria-describedby') === document.querySelector('.tr-error').id]));
  assert.deepEqual(await marked(), [['lab-field tr-field tr-field--capacity', true]]);
  await page.fill(capacityField, '-5');
  await page.click(`${MOUNT} .tr-rerun`);
  await page.waitForFunction((sel) => document.querySelector(sel).textContent.includes('-5'), error);
  assert.deepEqual(await marked(), [['lab-field tr-field tr-field--capacity', true]]);

  // A log none of whose lines is a request: the counts, and under them why each line was refused.
  const none = join(dir, 'none.jsonl');
  writeFileSync(none, '{"time":"yesterday","ip":"1.2.3.4"}\n{"time":null,"ip":"1.2.3.4"}\n{"ts":1700000000,"ip":5}\n');
  await setPolicy(page, 1, 1, 'keys:99%');
  await page.setInputFiles(`${MOUNT} .tr-file`, none);
  await page.waitForFunction((sel) => document.querySelector(sel).textContent.includes('No line'), error);
  assert.equal(await page.textContent(error), "No line of this file is a request this page's parsers recognize (lines: 3, malformed: 3).");
  assert.equal(await page.textContent(`${MOUNT} .tr-malformed-title`), '3 lines could not be read:');
  const reasons = await page.$$eval(`${MOUNT} .tr-malformed li`, (items) => items.map((li) => li.textContent));
  assert.deepEqual(reasons.map((why) => why.split(':')[0]), ['line 1', 'line 2', 'line 3']);
  assert.match(reasons[0], /yesterday/);

  // A JSON-lines log with a byte order mark: its first line is a request, as the command reads it.
  const bom = join(dir, 'bom.jsonl');
  writeFileSync(bom, '\ufeff{"time":1700000000,"ip":"a"}\n{"time":1700000000,"ip":"a"}\nnot json\n{"oops\n');
  await setPolicy(page, 1, 1, 'keys:99%');
  await page.setInputFiles(`${MOUNT} .tr-file`, bom);
  await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.report?.lines === 4);
  const report = await page.evaluate(() => window.bucketlab.traffic.outcome.report);
  assert.deepEqual([report.requests, report.malformed, report.limited], [2, 2, 1]);
  assert.deepEqual(report, cliReport(bom, ['--capacity', '1', '--refill-rate', '1', '--recommend', 'keys:99%']));
  // Both bad lines are listed: no “the first ones”.
  await page.waitForSelector(`${MOUNT} .tr-malformed-title`);
  assert.equal(await page.textContent(`${MOUNT} .tr-malformed-title`), '2 lines could not be read:');
  assert.deepEqual(await marked(), [], 'a run that starts unmarks the fields');
  // A rate too small for the summary's decimals is written as typed, not as a rate of 0.
  await setPolicy(page, 1, '1e-300', 'keys:99%');
  await page.click(`${MOUNT} .tr-rerun`);
  await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.includes('r = 1e-300/s'), `${MOUNT} .tr-summary`);
  await setPolicy(page, 1, 1, 'keys:99%');

  // One refusal in 2,001 requests of a client: not “0.0 %”.
  const many = join(dir, 'share.csv');
  const lines = ['1700000000,a', '1700000000,a'];
  for (let i = 1; i < 2000; i++) lines.push(`${1_700_000_000 + i},a`);
  writeFileSync(many, `${lines.join('\n')}\n`);
  await page.setInputFiles(`${MOUNT} .tr-file`, many);
  await page.waitForFunction(() => window.bucketlab.traffic?.outcome?.report?.lines === 2001);
  await page.waitForSelector(`${MOUNT} .tr-table`);
  assert.equal(await page.textContent(`${MOUNT} .tr-table tbody tr[data-key=a] td:nth-of-type(3)`), '< 0.1%');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('traffic: "Use a sample log" from the keyboard keeps focus on the button and announces the result', async () => {
  const page = await openTraffic('en.html', { viewport: { width: 1280, height: 800 } });
  await page.focus(`${MOUNT} .tr-sample`);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${MOUNT} .tr-summary`);
  // Busy while it replays, but still the focused button; usable again once the results are in.
  assert.equal(await page.evaluate(() => document.activeElement.className), 'tr-sample');
  assert.equal(await page.getAttribute(`${MOUNT} .tr-sample`, 'aria-disabled'), 'false');
  const report = await page.evaluate(() => window.bucketlab.traffic.outcome.report);
  assert.equal(await page.textContent(`${MOUNT} .tr-status`),
    `Replayed ${report.requests.toLocaleString('en')} requests from ${report.keys} clients: ${report.limited.toLocaleString('en')} would have gotten a 429.`);
  // Said, not shown: the summary right under it, in view, says the same at more length.
  assert.ok((await page.locator(`${MOUNT} .tr-status`).boundingBox()).height <= 1, 'the status line is not shown twice');
  assert.match(await page.textContent(`${MOUNT} .tr-summary`), new RegExp(`${report.limited.toLocaleString('en')} would have gotten a 429`));
  // Pressed again, the same: focus stays, the region says it again.
  await page.keyboard.press('Enter');
  await page.waitForFunction((m) => document.querySelector(`${m} .tr-status`).textContent !== '', MOUNT);
  assert.equal(await page.evaluate(() => document.activeElement.className), 'tr-sample');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('traffic: a row\'s "Timeline" pressed from the keyboard takes the focus to that key\'s timeline, not to the page', async () => {
  const page = await openTraffic('en.html', { viewport: { width: 1280, height: 800 } });
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForSelector(`${MOUNT} .tr-table`);
  const key = await page.textContent(`${MOUNT} .tr-table tbody tr:nth-child(2) .tr-key-text`);
  await page.focus(`${MOUNT} .tr-table tbody tr:nth-child(2) .tr-follow`);
  await page.keyboard.press('Enter');
  await page.waitForFunction(([m, k]) => document.querySelector(`${m} .tr-timeline h3`)?.textContent.includes(k), [MOUNT, key]);
  const focused = await page.evaluate(() => ({ tag: document.activeElement.tagName, text: document.activeElement.textContent }));
  assert.equal(focused.tag, 'H3');
  assert.match(focused.text, new RegExp(key.replace(/\./g, '\\.')));
  // The next Tab goes on from there (the chart, its play button), not from the results' top.
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate((m) => document.querySelector(`${m} .tr-timeline`).contains(document.activeElement)
    || document.querySelector(`${m} .tr-timeline`).compareDocumentPosition(document.activeElement) & Node.DOCUMENT_POSITION_FOLLOWING, MOUNT));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("traffic: two rows' Timeline pressed at once show the second key's timeline, one request after the other in the worker", async () => {
  const page = await openTraffic('en.html');
  await page.click(`${MOUNT} .tr-sample`);
  await page.waitForSelector(`${MOUNT} .tr-table`);
  const key = await page.textContent(`${MOUNT} .tr-table tbody tr:nth-child(3) .tr-key-text`);
  // Both in one task: the second comes while the worker still draws the first.
  await page.evaluate((m) => {
    document.querySelector(`${m} .tr-table tbody tr:nth-child(2) .tr-follow`).click();
    document.querySelector(`${m} .tr-table tbody tr:nth-child(3) .tr-follow`).click();
  }, MOUNT);
  await page.waitForFunction(([m, k]) => document.querySelector(`${m} .tr-busy`).hidden && document.querySelector(`${m} .tr-timeline h3`)?.textContent.includes(k), [MOUNT, key]);
  assert.equal(await page.textContent(`${MOUNT} .tr-error`), '');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// On a phone the four columns fit: the numbers that matter ("would get a 429", the share) are in
// view without scrolling sideways, the timeline's button sits under its key.
for (const [path, name] of [['', 'Requisições por cliente e quantas levariam 429'], ['en.html', 'Requests and would-be 429s per client']]) {
  test(`traffic (${path || 'index.html'}): on a phone every column of the table is in view, each address on one line, in a labelled, focusable box`, async () => {
    const page = await openTraffic(path, { viewport: { width: 375, height: 800 } });
    await page.click(`${MOUNT} .tr-sample`);
    await page.waitForSelector(`${MOUNT} .tr-table`);
    const keys = await page.$$eval(`${MOUNT} .tr-table .tr-key-text`, (cells) => cells.map((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return [cell.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
    }));
    assert.ok(keys.length > 5, 'the sample has clients');
    assert.deepEqual(keys.filter(([, lines]) => lines > 1), [], 'every address on one line');
    const box = await page.$eval(`${MOUNT} .tr-table`, (table) => {
      const wrap = table.parentElement;
      const right = wrap.getBoundingClientRect().right;
      const cut = [...table.querySelectorAll('caption, thead th, tbody tr:first-child > *')]
        .filter((cell) => cell.getBoundingClientRect().right > right + 0.5).map((cell) => cell.textContent);
      return { tabindex: wrap.getAttribute('tabindex'), name: document.getElementById(wrap.getAttribute('aria-labelledby'))?.textContent,
        overflow: getComputedStyle(wrap).overflowX, pageOverflow: document.documentElement.scrollWidth - innerWidth, cut,
        follow: table.querySelectorAll('tbody tr:first-child .tr-key .tr-follow').length };
    });
    assert.deepEqual(box, { tabindex: '0', name, overflow: 'auto', pageOverflow: 0, cut: [], follow: 1 });
    await page.context().close();
  });
}

// The charts are drawn for the width they are shown at: their labels are as large on a phone as on
// a laptop (a 640-wide drawing scaled to a phone's width had them at 6 px), the rates' names never
// touch, and after a resize the charts are drawn again for the new width. The page itself never
// scrolls sideways.
for (const path of ['', 'en.html']) {
  test(`traffic (${path || 'index.html'}): the charts' labels are at least 11 px on a phone and a laptop, inside their chart, and drawn again on a resize`, async () => {
    const page = await openTraffic(path, { viewport: { width: 1280, height: 800 } });
    await page.click(`${MOUNT} .tr-sample`);
    await page.waitForSelector(`${MOUNT} .tr-curve`);
    const labels = () => page.$$eval(`${MOUNT} svg.tr-chart`, (charts) => charts.map((chart) => {
      const box = chart.getBoundingClientRect();
      // Screen pixels per unit of the drawing.
      const scale = box.width / chart.viewBox.baseVal.width;
      const texts = [...chart.querySelectorAll('text')].map((text) => ({
        text: text.textContent, box: text.getBoundingClientRect(), size: parseFloat(getComputedStyle(text).fontSize) * scale,
        rate: text.matches('.tr-tick[text-anchor="middle"]'),
      }));
      // The rates' names, under the curve, left to right.
      const ticks = texts.filter((t) => t.rate).sort((a, b) => a.box.left - b.box.left);
      return {
        chart: chart.classList.contains('tr-curve') ? 'curve' : 'timeline',
        small: texts.filter((t) => t.size < 11 || t.box.height < 11).map((t) => `${t.text}: ${t.size.toFixed(1)} px, ${t.box.height.toFixed(1)} px high`),
        outside: texts.filter((t) => t.box.left < box.left - 0.5 || t.box.right > box.right + 0.5 || t.box.top < box.top - 0.5 || t.box.bottom > box.bottom + 0.5).map((t) => t.text),
        touching: ticks.slice(1).filter((t, i) => t.box.left < ticks[i].box.right + 2).map((t) => t.text),
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      };
    }));
    const want = (chart) => ({ chart, small: [], outside: [], touching: [], page: 0 });
    assert.deepEqual(await labels(), [want('timeline'), want('curve')], '1280 px');
    await page.setViewportSize({ width: 375, height: 812 });
    // Drawn again for the phone (a drawing of the box's width, one unit a pixel); the labels say
    // whether it was.
    await page.waitForFunction((m) => [...document.querySelectorAll(`${m} svg.tr-chart`)].every((chart) => Math.abs(chart.viewBox.baseVal.width - chart.getBoundingClientRect().width) < 1), MOUNT, { timeout: 5000 }).catch(() => {});
    assert.deepEqual(await labels(), [want('timeline'), want('curve')], '375 px');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

// The form's boxes are one height, so a row of them lines up: its menus were 40 px, its text boxes
// 42–44, and the Limiter sat 2 px lower than the fields beside it.
test('traffic: the form\'s boxes are one height, and a row of them starts at one line (375 and 1280 px)', async () => {
  for (const width of [1280, 375]) {
    const page = await openTraffic('en.html', { viewport: { width, height: 812 } });
    const boxes = await page.$$eval(`${MOUNT} .tr-form :is(input[type="text"], select)`, (all) => all.map((control) => {
      const box = control.getBoundingClientRect();
      return { name: control.closest('.tr-field').className.match(/tr-field--(\w+)/)[1], top: box.top, height: box.height };
    }));
    assert.ok(boxes.length >= 5, 'capacity, rate, limiter, format, key');
    const heights = boxes.map((b) => b.height);
    assert.ok(Math.max(...heights) - Math.min(...heights) < 0.5, `${width} px: heights ${JSON.stringify(boxes)}`);
    // Boxes on one row of the form start at one height.
    for (const a of boxes) {
      for (const b of boxes) if (Math.abs(a.top - b.top) < a.height / 2) assert.ok(Math.abs(a.top - b.top) < 0.5, `${width} px: ${a.name} at ${a.top}, ${b.name} at ${b.top}`);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

// A row's cells line up: the key, its "Timeline" button and the numbers on one centre line (the key
// sat at the top beside a taller, centred button); on a phone the button goes under its key.
test('traffic: the table\'s key, its button and the numbers share a centre line; on a phone the button is under its key', async () => {
  for (const width of [1280, 375]) {
    const page = await openTraffic('en.html', { viewport: { width, height: 812 } });
    await page.click(`${MOUNT} .tr-sample`);
    await page.waitForSelector(`${MOUNT} .tr-table`);
    const rows = await page.$$eval(`${MOUNT} .tr-table tbody tr:nth-child(-n+3)`, (trs) => trs.map((tr) => {
      const middle = (box) => (box.top + box.bottom) / 2;
      const range = document.createRange();
      range.selectNodeContents(tr.querySelector('td'));
      const key = tr.querySelector('.tr-key-text').getBoundingClientRect();
      const button = tr.querySelector('.tr-follow').getBoundingClientRect();
      return { key: middle(key), button: middle(button), number: middle(range.getBoundingClientRect()), keyBottom: key.bottom, buttonTop: button.top };
    }));
    assert.equal(rows.length, 3);
    for (const row of rows) {
      if (width > 480) {
        assert.ok(Math.abs(row.key - row.button) < 1, `1280 px: key and button centred together: ${JSON.stringify(row)}`);
        assert.ok(Math.abs(row.key - row.number) < 1, `1280 px: key and numbers centred together: ${JSON.stringify(row)}`);
      } else {
        assert.ok(row.buttonTop >= row.keyBottom - 1, `375 px: the button under its key: ${JSON.stringify(row)}`);
      }
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('traffic: the same file chosen again, after a refused setting was fixed, runs (the chooser forgets the last choice)', async () => {
  const page = await openTraffic('en.html');
  const file = join(dir, 'again.log');
  writeFileSync(file, '1.2.3.4 - - [10/Oct/2023:13:55:36 +0000] "GET / HTTP/1.1" 200 2 "-" "x"\n');
  const choose = async () => {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click(`${MOUNT} .tr-drop-label`)]);
    await chooser.setFiles(file);
  };
  await page.fill(`${MOUNT} .tr-field--capacity input`, '-5');
  await choose();
  await page.waitForFunction((sel) => document.querySelector(sel).textContent.includes('-5'), `${MOUNT} .tr-error`);
  await page.fill(`${MOUNT} .tr-field--capacity input`, '3');
  await choose();
  await page.waitForSelector(`${MOUNT} .tr-summary`);
  assert.equal(await page.textContent(`${MOUNT} .tr-error`), '');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('traffic (index.html): a gzip log cut in half is said in Portuguese, with what to do', async () => {
  const cut = join(dir, 'cut.log.gz');
  const whole = gzipSync(Buffer.from(generatedLog(2000, 4)));
  writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
  const page = await openTraffic('');
  await page.setInputFiles(`${MOUNT} .tr-file`, cut);
  await page.waitForFunction((m) => document.querySelector(`${m} .tr-error`)?.textContent, MOUNT);
  assert.match(await page.textContent(`${MOUNT} .tr-error`),
    /^Não foi possível ler o arquivo: a compressão gzip dele está incompleta ou danificada \(o decodificador diz: [^)]+\)\. Comprima o log de novo, ou descompacte-o e escolha o arquivo de texto\.$/);
  await page.context().close();
});
