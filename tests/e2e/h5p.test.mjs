// bucketlab.h5p from make dist, unpacked and played by the real h5p-standalone player in
// Chromium: the bucket works (send until a 429) with no .wasm file anywhere, the author's
// parameters reach the element, and the xAPI events arrive through H5P's dispatcher, each valid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPage } from './harness.mjs';
import { zipEntries } from '../lms/packages.mjs';
import { sendUntilRefused, usePackages } from '../lms/learner.mjs';
import { statementProblems } from '../lms/lrs-stand-in.mjs';
import { pack } from '../../scripts/h5p.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;


/**
 * A host page playing the unpacked package in `h5pFolder` (h5p.json and the library folders) with
 * `contentFolder` (a folder with content.json); `options` is more of h5p-standalone's options (text
 * of object members).
 */
function playerPage(contentFolder = 'bucketlab/content', h5pFolder = 'bucketlab', options = '') {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>H5P host</title>
<script src="player/main.bundle.js"></script></head>
<body><div id="h5p"></div><script>
  window.xapi = [];
  // Real hosts (Moodle, WordPress, Drupal) give H5P their siteUrl, the homePage of an anonymous
  // learner's xAPI account; h5p-standalone has no option for it, so the page adds it.
  let integration;
  Object.defineProperty(window, 'H5PIntegration', { configurable: true, get: () => integration,
    set: (value) => { integration = { siteUrl: location.origin, ...value }; } });
  new H5PStandalone.H5P(document.getElementById('h5p'), {
    h5pJsonPath: './${h5pFolder}', contentJsonPath: './${contentFolder}',
    frameJs: './player/frame.bundle.js', frameCss: './player/styles/h5p.css',${options}
  }).then(() => H5P.externalDispatcher.on('xAPI', (event) => xapi.push(event.data.statement)));
</script></body></html>`;
}

const env = usePackages({ h5p: pack }, { player: 'node_modules/h5p-standalone/dist' }, {
  'play.html': playerPage(),
  // A host that keeps scores (as Moodle and WordPress do): H5P's core POSTs a finished attempt
  // (setFinished) for each scored statement without a parent.
  'scoring.html': playerPage(undefined, undefined, `
    postUserStatistics: true, ajax: { setFinishedUrl: '/h5p-finished' },`),
  // What an author would set in the editor: another bucket, Portuguese, two controls.
  'authored.html': async (dir) => {
    await mkdir(join(dir, 'authored'));
    await writeFile(join(dir, 'authored', 'content.json'), JSON.stringify({
      capacity: 3, refillRate: 0.5, cost: 2, language: 'pt-BR', question: false,
      controls: { send: true, cost: false, burst: false, bucket: false, traffic: false, time: true },
    }));
    return playerPage('authored');
  },
  'aggregated.html': (dir) => aggregate(dir, 'bucketlab', 'aggregated'),
  // A host whose CSP lets styles come only from itself and inline (no blob: or data: URLs), as
  // strict LMS installations set it; the player's frame inherits the policy.
  'strict-csp.html': playerPage().replace('<link rel="icon"',
    `<meta http-equiv="Content-Security-Policy" content="style-src 'self' 'unsafe-inline'"><link rel="icon"`),
  // A content.json with no controls group (written by hand, or by an older editor).
  'no-controls.html': (dir) => content(dir, 'no-controls', { capacity: 7, refillRate: 1, cost: 3, language: 'en', question: true }),
  // A host that saves the learner's state (as Moodle, WordPress and Drupal do): H5P's core asks the
  // content for it every second and POSTs it to the host (the test answers for the host).
  'saving.html': playerPage(undefined, undefined, `
    saveFreq: 1, user: { name: 'Ana', mail: 'ana@example.org' },
    ajax: { contentUserDataUrl: '/h5p-state/:contentId/:dataType/:subContentId' },`),
  // A later sitting: the host hands back what it saved, a wrong answer (4 of a bucket of 5), in
  // H5PIntegration as Moodle and WordPress write it (H5P's core passes it on only where state is
  // saved at all: a saveFreq).
  'resumed.html': playerPage(undefined, undefined, `
    saveFreq: 3600,
    contentUserData: [{ state: JSON.stringify({ response: '4' }) }],`),
  // A cost above the capacity: the editor checks each field alone and lets it through.
  'cost-above.html': (dir) => content(dir, 'cost-above', { capacity: 5, refillRate: 1, cost: 10, language: 'pt-BR', question: true }),
});

/** Writes `params` as `<dir>/<name>/content.json`; resolves to the player page for it. */
async function content(dir, name, params) {
  await mkdir(join(dir, name));
  await writeFile(join(dir, name, 'content.json'), JSON.stringify(params));
  return playerPage(name);
}

/**
 * The package as a host that aggregates library assets serves it (WordPress' H5P plugin by
 * default): every preloadedJs concatenated into cachedassets/<hash>.js, every preloadedCss into
 * cachedassets/<hash>.css, and nothing else of the library's folder served. Written into
 * `<dir>/<into>/` (h5p.json, content, library.json pointing at the aggregates); resolves to its player page.
 */
async function aggregate(dir, from, into) {
  const lib = 'H5P.BucketLab-1.0';
  const library = JSON.parse(await readFile(join(dir, from, lib, 'library.json'), 'utf8'));
  await mkdir(join(dir, into, lib), { recursive: true });
  await mkdir(join(dir, 'cachedassets'), { recursive: true });
  await cp(join(dir, from, 'content'), join(dir, into, 'content'), { recursive: true });
  await cp(join(dir, from, 'h5p.json'), join(dir, into, 'h5p.json'));
  const hash = 'b5a1e9c03d7f';
  for (const [key, ext] of [['preloadedJs', 'js'], ['preloadedCss', 'css']]) {
    const parts = await Promise.all(library[key].map(({ path }) => readFile(join(dir, from, lib, path), 'utf8')));
    await writeFile(join(dir, 'cachedassets', `${hash}.${ext}`), parts.join('\n'));
    library[key] = [{ path: `../../cachedassets/${hash}.${ext}` }];
  }
  await writeFile(join(dir, into, lib, 'library.json'), JSON.stringify(library));
  return playerPage(`${into}/content`, into);
}

/** Opens a host page; resolves to [page, the H5P frame] once the diagram is mounted. */
async function play(path) {
  const page = await openPage(env.browser);
  await page.goto(new URL(path, env.server.url).href);
  await page.waitForFunction(() => [...document.querySelectorAll('iframe')].some((f) =>
    f.contentDocument?.querySelector('bucket-lab')?.shadowRoot?.querySelector('.bl-widget[data-live]')));
  const frame = page.frames().find((f) => f !== page.mainFrame());
  return [page, frame];
}

const verbs = (statements) => statements.map((s) => s.verb.id.split('/').pop());

test('lms: the .h5p holds h5p.json, content and the library with its semantics and LICENSE.txt, and no .wasm', async () => {
  const entries = zipEntries(env.packages.files['bucketlab.h5p']);
  for (const file of ['h5p.json', 'content/content.json', 'H5P.BucketLab-1.0/library.json', 'H5P.BucketLab-1.0/semantics.json',
    'H5P.BucketLab-1.0/bucket-lab-h5p.js', 'H5P.BucketLab-1.0/LICENSE.txt', 'H5P.BucketLab-1.0/THIRD-PARTY-NOTICES.txt']) {
    assert.ok(entries.includes(file), `${file} in ${entries.join(', ')}`);
  }
  assert.ok(!entries.some((e) => e.endsWith('.wasm')));
  // The element's stylesheets are in the script, not beside it (see the aggregated host's test).
  assert.deepEqual(entries.filter((e) => e.endsWith('.css')), ['H5P.BucketLab-1.0/bucket-lab-h5p.css']);
  const dir = join(env.packages.dir, 'bucketlab');
  const licence = await readFile(join(ROOT, 'LICENSE'), 'utf8');
  assert.equal(await readFile(join(dir, 'H5P.BucketLab-1.0', 'LICENSE.txt'), 'utf8'), licence);
  assert.equal(await readFile(join(dir, 'H5P.BucketLab-1.0', 'THIRD-PARTY-NOTICES.txt'), 'utf8'),
    await readFile(join(ROOT, 'www', 'THIRD-PARTY-NOTICES.txt'), 'utf8'), 'the notices of the crates in the script\'s wasm');
  const h5p = JSON.parse(await readFile(join(dir, 'h5p.json'), 'utf8'));
  const library = JSON.parse(await readFile(join(dir, 'H5P.BucketLab-1.0', 'library.json'), 'utf8'));
  assert.equal(library.license, 'MIT');
  // h5p.json's licence is one of H5P's own (its player's list, below); the MIT text rides in
  // licenseExtras, on one line as H5P's validator wants it.
  assert.equal(h5p.license, 'U');
  assert.equal(h5p.licenseExtras, licence.replace(/\s+/g, ' ').trim());
  assert.match(h5p.licenseExtras, /^MIT License Copyright \(c\) 2026 the bucketlab authors Permission/);
  assert.equal(h5p.mainLibrary, library.machineName);
  assert.deepEqual(h5p.preloadedDependencies, [{ machineName: 'H5P.BucketLab', majorVersion: 1, minorVersion: 0 }]);
  const semantics = JSON.parse(await readFile(join(dir, 'H5P.BucketLab-1.0', 'semantics.json'), 'utf8'));
  assert.deepEqual(semantics.map((f) => f.name), ['capacity', 'refillRate', 'cost', 'language', 'controls', 'question']);
  // The editor's Portuguese words follow the semantics field by field (H5P matches them by position).
  const words = JSON.parse(await readFile(join(dir, 'H5P.BucketLab-1.0', 'language', 'pt-br.json'), 'utf8')).semantics;
  const shape = (fields) => fields.map((f) => [Boolean(f.label), f.options?.length ?? 0, f.fields?.length ?? 0]);
  assert.deepEqual(shape(words), shape(semantics));
  const content = JSON.parse(await readFile(join(dir, 'content', 'content.json'), 'utf8'));
  for (const field of semantics) assert.ok(field.name in content, `content.json sets ${field.name}`);
});

/** Records the host's setFinished POSTs (`/h5p-finished`) of `page` in the array it resolves to. */
async function finishedAttempts(page) {
  const posts = [];
  await page.context().route('**/h5p-finished', async (route) => {
    posts.push(Object.fromEntries(new URLSearchParams(route.request().postData())));
    await route.fulfill({ contentType: 'application/json', body: '{"success":true}' });
  });
  // A request the frame makes after the Check: once it has arrived, so has every POST made before it.
  await page.context().route('**/h5p-sentinel', (route) => route.fulfill({ body: '' }));
  return posts;
}

test('lms: h5p-standalone plays the bucket: a 429 after B requests, xAPI through H5P, no .wasm fetched; a Check is one scored statement', async () => {
  const page = await openPage(env.browser);
  const posts = await finishedAttempts(page);
  await page.goto(new URL('scoring.html', env.server.url).href);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForSelector('.h5p-bucket-lab fieldset');
  await page.waitForFunction(() => window.xapi.length === 1);
  assert.equal(await sendUntilRefused(frame, { inElement: true }), 5);
  await page.waitForFunction(() => window.xapi.length === 2);
  // The question: a full bucket of 5, requests of 1: five pass.
  await frame.check('input[value="5"]');
  await frame.click('.h5p-bucket-lab-check');
  assert.match(await frame.textContent('.h5p-bucket-lab-feedback'), /^Right: 5 requests pass/);
  await frame.evaluate(() => fetch('/h5p-sentinel'));
  const statements = await page.evaluate(() => window.xapi);
  // One scored statement for the Check, as stock H5P questions send: a host records an attempt for each.
  assert.deepEqual(verbs(statements), ['experienced', 'interacted', 'answered']);
  for (const statement of statements) assert.deepEqual(statementProblems(statement), [], JSON.stringify(statement));
  assert.deepEqual([...new Set(statements.map((s) => s.object.id))].length, 1, 'one activity: the content');
  assert.deepEqual(statements[2].result.score, { min: 0, max: 1, raw: 1, scaled: 1 });
  assert.deepEqual([statements[2].result.response, statements[2].result.success, statements[2].result.completion], ['5', true, true]);
  assert.deepEqual(posts.map(({ score, maxScore }) => [score, maxScore]), [['1', '1']], 'one attempt finished, scored 1 of 1');
  assert.equal(await frame.evaluate(() => H5P.instances[0].getScore()), 1);
  // Right: nothing to retry, and the focus is on the result, not lost on the page.
  assert.deepEqual(await frame.evaluate(() => [document.activeElement.matches('.h5p-bucket-lab-feedback'),
    ...['.h5p-bucket-lab-check', '.h5p-bucket-lab-retry'].map((s) => document.querySelector(s)?.checkVisibility() ?? null)]),
  [true, false, false]);
  assert.deepEqual(env.server.log.filter((r) => /\.wasm$/.test(r.path) || r.status === 404), []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: the author\'s B, r, cost, language and controls reach the element', async () => {
  const [page, frame] = await play('authored.html');
  const element = await frame.evaluate(() => {
    const el = document.querySelector('bucket-lab');
    const shown = (selector) => el.shadowRoot.querySelector(selector)?.checkVisibility();
    return {
      attributes: Object.fromEntries(['capacity', 'refill-rate', 'cost', 'lang', 'controls'].map((a) => [a, el.getAttribute(a)])),
      capacity: el.diagram.capacity, refillRate: el.diagram.refillRate, cost: el.diagram.cost,
      send: shown('.bl-send'), burst: shown('.bl-burst'), question: Boolean(document.querySelector('.h5p-bucket-lab fieldset')),
    };
  });
  assert.deepEqual(element, {
    attributes: { capacity: '3', 'refill-rate': '0.5', cost: '2', lang: 'pt-BR', controls: 'send time' },
    capacity: 3, refillRate: 0.5, cost: 2, send: true, burst: false, question: false,
  });
  // B = 3 and a cost of 2: one request passes, the second is refused.
  assert.equal(await sendUntilRefused(frame, { inElement: true }), 1);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: the H5P frame grows with its content: the question and its button stay in view after a request', async () => {
  for (const width of [1280, 375]) {
    const page = await openPage(env.browser, { viewport: { width, height: 800 } });
    await page.goto(new URL('play.html', env.server.url).href);
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    await frame.waitForSelector('bucket-lab');
    await frame.waitForFunction(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-widget[data-live]'));
    // The frame is as tall as what it shows: the Check button's bottom is inside it.
    const fits = () => page.waitForFunction(() => {
      const iframe = document.querySelector('iframe');
      const button = iframe.contentDocument.querySelector('.h5p-bucket-lab button');
      return button && button.getBoundingClientRect().bottom <= iframe.clientHeight;
    }, null, { timeout: 5000 });
    await fits();
    const before = await page.evaluate(() => document.querySelector('iframe').clientHeight);
    await frame.evaluate(() => document.querySelector('bucket-lab').diagram.send());
    await page.waitForFunction((h) => document.querySelector('iframe').clientHeight > h, before, { timeout: 5000 });
    await fits();
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

/** What the element's stylesheets decide in `frame`: the send button's look and the diagram's size. */
const widgetLook = (frame) => frame.evaluate(() => {
  const root = document.querySelector('bucket-lab').shadowRoot;
  const style = getComputedStyle(root.querySelector('.bl-send'));
  const svg = root.querySelector('svg').getBoundingClientRect();
  return {
    frameShown: !root.querySelector('.bl-frame').hidden,
    send: { background: style.backgroundColor, color: style.color, minHeight: style.minHeight, fontFamily: style.fontFamily },
    svg: { width: Math.round(svg.width), height: Math.round(svg.height) },
  };
});

test('lms: on a host that aggregates library scripts into cachedassets/, the widget is styled as in its own folder, with no 404', async () => {
  const [page, frame] = await play('play.html');
  const own = await widgetLook(frame);
  await page.context().close();
  // The unstyled widget's button is the browser's (grey, 0px min-height) and its SVG 300 x 150.
  assert.equal(own.frameShown, true);
  assert.notEqual(own.send.minHeight, '0px', JSON.stringify(own));
  assert.notDeepEqual(own.svg, { width: 300, height: 150 });
  const before = env.server.log.length;
  const [aggregated, aggregatedFrame] = await play('aggregated.html');
  assert.deepEqual(await widgetLook(aggregatedFrame), own);
  assert.equal(await sendUntilRefused(aggregatedFrame, { inElement: true }), 5);
  const served = env.server.log.slice(before);
  assert.ok(served.some((r) => r.path === 'cachedassets/b5a1e9c03d7f.js'), 'the script came from cachedassets/');
  assert.deepEqual(served.filter((r) => r.status === 404 || r.path.startsWith('aggregated/H5P.BucketLab-1.0/') && !r.path.endsWith('library.json')), []);
  // The player's own list of licences, which h5p.json's licence must be one of.
  const { license } = JSON.parse(await readFile(join(env.packages.dir, 'bucketlab', 'h5p.json'), 'utf8'));
  assert.equal(await aggregatedFrame.evaluate((name) => Object.hasOwn(H5P.copyrightLicenses, name), license), true, license);
  assert.deepEqual(aggregated.problems, []);
  await aggregated.context().close();
});

test('lms: on a host whose CSP allows styles only from itself (no blob:), the widget is styled as elsewhere', async () => {
  const [page, frame] = await play('play.html');
  const own = await widgetLook(frame);
  await page.context().close();
  const [strict, strictFrame] = await play('strict-csp.html');
  assert.deepEqual(await widgetLook(strictFrame), own);
  assert.equal(await sendUntilRefused(strictFrame, { inElement: true }), 5);
  assert.deepEqual(strict.problems, [], 'nothing refused');
  // The policy is in force in the frame: a blob: stylesheet is refused there.
  const blocked = await strictFrame.evaluate(() => new Promise((resolve) => {
    const link = Object.assign(document.createElement('link'), { rel: 'stylesheet' });
    link.href = URL.createObjectURL(new Blob(['p { color: red }'], { type: 'text/css' }));
    link.onload = () => resolve(false);
    link.onerror = () => resolve(true);
    document.head.append(link);
  }));
  assert.equal(blocked, true, 'the frame refuses blob: stylesheets');
  await strict.context().close();
});

test('lms: in a browser without adopted style sheets (Safari before 16.4), the stylesheets are linked as blob: URLs instead', async () => {
  const [page, frame] = await play('play.html');
  const own = await widgetLook(frame);
  assert.deepEqual(await frame.evaluate(() => document.querySelector('bucket-lab').shadowRoot.querySelectorAll('link').length), 0);
  await page.context().close();
  const old = await openPage(env.browser);
  await old.addInitScript(() => delete ShadowRoot.prototype.adoptedStyleSheets);
  await old.goto(new URL('play.html', env.server.url).href);
  await old.waitForFunction(() => [...document.querySelectorAll('iframe')].some((f) =>
    f.contentDocument?.querySelector('bucket-lab')?.shadowRoot?.querySelector('.bl-widget[data-live]')));
  const oldFrame = old.frames().find((f) => f !== old.mainFrame());
  assert.deepEqual(await oldFrame.evaluate(() => [...document.querySelector('bucket-lab').shadowRoot.querySelectorAll('link')]
    .map((link) => [link.href.slice(0, 5), link.sheet !== null])), [['blob:', true], ['blob:', true]]);
  assert.deepEqual(await widgetLook(oldFrame), own);
  assert.deepEqual(old.problems, []);
  await old.context().close();
});

test('lms: H5P content without a controls group shows every control, as the editor\'s defaults say', async () => {
  const [page, frame] = await play('no-controls.html');
  const shown = await frame.evaluate(() => {
    const el = document.querySelector('bucket-lab');
    return { controls: el.getAttribute('controls'), send: el.shadowRoot.querySelector('.bl-send')?.checkVisibility() };
  });
  assert.deepEqual(shown, { controls: 'send cost burst bucket traffic time', send: true });
  // B = 7 and a cost of 3: two requests pass, the third is refused, and the host hears of it.
  assert.equal(await sendUntilRefused(frame, { inElement: true }), 2);
  await page.waitForFunction(() => window.xapi.some((s) => s.verb.id.endsWith('/interacted')));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: H5P content whose cost is above the capacity names the editor\'s fields, in its language, and asks nothing', async () => {
  const page = await openPage(env.browser);
  await page.goto(new URL('cost-above.html', env.server.url).href);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  const message = await frame.waitForSelector('.h5p-bucket-lab-error');
  assert.equal(await message.getAttribute('role'), 'alert');
  const text = await message.textContent();
  assert.match(text, /“Custo de uma requisição \(tokens\)” \(10\) é maior que “Capacidade B \(tokens\)” \(5\)/);
  assert.doesNotMatch(text, /atributo|attribute/i);
  assert.deepEqual(await frame.evaluate(() => [
    Boolean(document.querySelector('bucket-lab')), Boolean(document.querySelector('.h5p-bucket-lab fieldset')), H5P.instances[0].getMaxScore(),
  ]), [false, false, 0]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: the H5P question\'s answered statement is a choice interaction with its choices and the right one', async () => {
  const [page, frame] = await play('play.html');
  // B = 5, cost 1: the choices are 4, 5 and 6, and 5 is right. The learner picks 6.
  await frame.check('input[value="6"]');
  await frame.click('.h5p-bucket-lab-check');
  await page.waitForFunction(() => window.xapi.some((s) => s.verb.id.endsWith('/answered')));
  const answered = await page.evaluate(() => window.xapi.find((s) => s.verb.id.endsWith('/answered')));
  assert.deepEqual(statementProblems(answered), [], JSON.stringify(answered));
  const { definition } = answered.object;
  assert.equal(definition.type, 'http://adlnet.gov/expapi/activities/cmi.interaction');
  assert.equal(definition.interactionType, 'choice');
  assert.deepEqual(definition.choices, ['4', '5', '6'].map((id) => ({ id, description: { en: id } })));
  assert.deepEqual(definition.correctResponsesPattern, ['5']);
  assert.match(definition.description.en, /^The bucket is full \(B = 5\) and each request costs 1\./);
  assert.deepEqual([answered.result.response, answered.result.success], ['6', false]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: the question\'s legend wraps inside its box and Check is a styled button, at 600 and 375 px', async () => {
  for (const width of [600, 375]) {
    const page = await openPage(env.browser, { viewport: { width, height: 1200 } });
    await page.goto(new URL('play.html', env.server.url).href);
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    await frame.waitForSelector('.h5p-bucket-lab fieldset');
    const look = await frame.evaluate(() => {
      const fieldset = document.querySelector('.h5p-bucket-lab fieldset');
      const legend = fieldset.querySelector('legend');
      const button = document.querySelector('.h5p-bucket-lab button');
      const [box, text] = [fieldset.getBoundingClientRect(), legend.getBoundingClientRect()];
      const border = parseFloat(getComputedStyle(fieldset).borderTopWidth);
      const style = getComputedStyle(button);
      return {
        // Below the top border, not on it: a legend on the border has the border through its lines.
        inside: text.top >= box.top + border && text.bottom < box.bottom && text.left >= box.left && text.right <= box.right,
        lines: Math.round(text.height / parseFloat(getComputedStyle(legend).lineHeight)),
        button: [style.backgroundColor, style.color, style.borderRadius, button.getBoundingClientRect().height >= 44],
      };
    });
    assert.equal(look.inside, true, `${width} px: the legend inside the fieldset`);
    if (width === 375) assert.ok(look.lines >= 2, `the question wraps at 375 px: ${look.lines} lines`);
    assert.deepEqual(look.button, ['rgb(76, 47, 184)', 'rgb(255, 255, 255)', '6px', true], `${width} px`);
    if (process.env.BUCKETLAB_SCREENSHOTS) {
      await (await page.$('iframe')).screenshot({ path: join(process.env.BUCKETLAB_SCREENSHOTS, `h5p-${width}.png`) });
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('lms: a host that saves state gets the learner\'s answer from H5P\'s core, and nothing before one', { timeout: 30_000 }, async () => {
  const page = await openPage(env.browser);
  const saved = [];
  let answerSaved;
  const answerArrived = new Promise((resolve) => { answerSaved = resolve; });
  // The host's end of H5P's content user data: nothing saved yet, and every save recorded.
  await page.context().route('**/h5p-state/**', async (route) => {
    const post = route.request().method() === 'POST';
    const data = post ? new URLSearchParams(route.request().postData()).get('data') : null;
    if (data) {
      saved.push(JSON.parse(data));
      if (saved.at(-1).response === '5') answerSaved();
    }
    await route.fulfill({ contentType: 'application/json', body: post ? '{"success":true}' : '{"success":true,"data":false}' });
  });
  await page.goto(new URL('saving.html', env.server.url).href);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => document.querySelector('bucket-lab')?.shadowRoot?.querySelector('.bl-widget[data-live]'));
  assert.equal(await frame.evaluate(() => H5P.instances[0].getCurrentState()), undefined, 'nothing to save before an answer');
  await frame.check('input[value="5"]');
  await frame.click('.h5p-bucket-lab-check');
  await answerArrived;
  assert.deepEqual(saved.at(-1), { response: '5' });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/** The question in `frame` as the learner finds it, and as the H5P instance reports it. */
const question = (frame) => frame.evaluate(() => {
  const instance = H5P.instances[0];
  return {
    checked: document.querySelector('.h5p-bucket-lab input:checked')?.value ?? null,
    enabled: [...document.querySelectorAll('.h5p-bucket-lab input, .h5p-bucket-lab button')].filter((e) => !e.disabled && e.checkVisibility()).map((e) => e.value || e.textContent),
    feedback: document.querySelector('.h5p-bucket-lab-feedback').textContent,
    score: instance.getScore(), given: instance.getAnswerGiven(), state: instance.getCurrentState() ?? null,
  };
});

test('lms: after a wrong answer, Retry (by keyboard) clears it and the score; each Check is one scored statement and one attempt', async () => {
  const page = await openPage(env.browser);
  const posts = await finishedAttempts(page);
  await page.goto(new URL('scoring.html', env.server.url).href);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForSelector('.h5p-bucket-lab fieldset');
  /** What has the focus: Check, Retry, the feedback, a choice (its value), or else the element's tag (BODY: lost). */
  const focused = () => frame.evaluate(() => {
    const active = document.activeElement;
    const part = ['check', 'retry', 'feedback'].find((name) => active.matches(`.h5p-bucket-lab-${name}`));
    return part ?? (active.matches('.h5p-bucket-lab input') ? active.value : active.tagName);
  });
  // Only the keyboard: the first choice (4, wrong), Tab to Check, Enter.
  await frame.focus('.h5p-bucket-lab input[value="4"]');
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'check');
  await page.keyboard.press('Enter');
  // The result has the focus (read out there), and Tab goes on to Retry.
  assert.equal(await focused(), 'feedback');
  assert.deepEqual(await question(frame), {
    checked: '4', enabled: ['Retry'], feedback: 'Not quite. Each request takes 1 token from the 5 in the full bucket: work it out, or send requests in the diagram and count those that pass before the first 429, then retry.',
    score: 0, given: true, state: { response: '4' },
  });
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'retry');
  await page.keyboard.press('Enter');
  // Back to the choices, on the first: nothing chosen, no feedback, no score, the empty answer to save.
  assert.equal(await focused(), '4');
  assert.deepEqual(await question(frame), { checked: null, enabled: ['4', '5', '6', 'Check'], feedback: '', score: 0, given: false, state: {} });
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.equal((await question(frame)).score, 1);
  await frame.evaluate(() => fetch('/h5p-sentinel'));
  const statements = await page.evaluate(() => window.xapi);
  assert.deepEqual(verbs(statements), ['experienced', 'answered', 'answered']);
  assert.deepEqual(statements.slice(1).map((s) => [s.result.response, s.result.score.raw]), [['4', 0], ['5', 1]]);
  assert.deepEqual(posts.map(({ score }) => score), ['0', '1'], 'one attempt for each Check');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: two questions of the same content id in one frame (a host that runs it twice) keep their own answers', async () => {
  const [page, frame] = await play('play.html');
  const checked = await frame.evaluate(async () => {
    const boxes = [0, 1].map(() => {
      const box = document.createElement('div');
      document.body.append(box);
      H5P.newRunnable({ library: 'H5P.BucketLab 1.0', params: { capacity: 5, cost: 1 } }, 'shared', H5P.jQuery(box));
      return box;
    });
    for (;;) {
      if (boxes.every((box) => box.querySelector('fieldset'))) break;
      await new Promise(requestAnimationFrame);
    }
    boxes[0].querySelector('input[value="5"]').click();
    boxes[1].querySelector('input[value="4"]').click();
    return boxes.map((box) => box.querySelector('input:checked')?.value ?? null);
  });
  assert.deepEqual(checked, ['5', '4']);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: where WebAssembly is missing (Safari\'s Lockdown Mode), the H5P question is neither shown nor scored, and nothing is sent', async () => {
  const page = await openPage(env.browser);
  await page.addInitScript(() => { if (window.frameElement) delete window.WebAssembly; });
  await page.goto(new URL('play.html', env.server.url).href);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => H5P.instances?.[0]?.getMaxScore() === 0);
  assert.deepEqual(await frame.evaluate(() => {
    const instance = H5P.instances[0];
    return {
      webAssembly: 'WebAssembly' in window, element: Boolean(document.querySelector('bucket-lab')),
      question: Boolean(document.querySelector('.h5p-bucket-lab fieldset, .h5p-bucket-lab button')),
      score: instance.getScore(), given: instance.getAnswerGiven(), state: instance.getCurrentState() ?? null,
    };
  }), { webAssembly: false, element: true, question: false, score: 0, given: false, state: null });
  assert.deepEqual(await page.evaluate(() => window.xapi ?? []), []);
  // The element says why in its own box, in the content's language; the H5P part only warns, and
  // nothing is left uncaught.
  await frame.waitForFunction(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-error[role="alert"]'));
  assert.match(await frame.evaluate(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-error').textContent),
    /^The diagram could not be loadedThis browser has WebAssembly turned off/);
  const element = /^error: <bucket-lab> could not load its WebAssembly module: WebAssembly is not defined$/;
  assert.deepEqual(page.problems.filter((p) => !element.test(p)),
    ['warning: H5P.BucketLab could not start its WebAssembly module, so it asks no question: WebAssembly is not defined']);
  await page.context().close();
});

test('lms: a later sitting shows the saved answer as given, scored, with no statement sent again; a reset clears it', async () => {
  const [page, frame] = await play('resumed.html');
  // A wrong answer: Retry is offered, as after a Check.
  assert.deepEqual(await question(frame), {
    checked: '4', enabled: ['Retry'], feedback: 'Not quite. Each request takes 1 token from the 5 in the full bucket: work it out, or send requests in the diagram and count those that pass before the first 429, then retry.',
    score: 0, given: true, state: { response: '4' },
  });
  await page.waitForFunction(() => window.xapi.length === 1);
  assert.deepEqual(verbs(await page.evaluate(() => window.xapi)), ['experienced'], 'the saved answer is not sent again');
  // A host may score or save content it has not shown yet: the answer counts from the start.
  assert.deepEqual(await frame.evaluate(() => {
    const hidden = H5P.newRunnable({ library: 'H5P.BucketLab 1.0', params: { capacity: 5, cost: 1 } }, 'hidden', undefined, true, { previousState: { response: '5' } });
    return [hidden.getAnswerGiven(), hidden.getScore(), hidden.getCurrentState()];
  }), [true, 1, { response: '5' }]);
  await frame.evaluate(() => H5P.instances[0].resetTask());
  // The three choices (4, 5, 6) and Check, usable again; the host is to forget the saved answer.
  assert.deepEqual(await question(frame), { checked: null, enabled: ['4', '5', '6', 'Check'], feedback: '', score: 0, given: false, state: {} });
  await frame.check('input[value="5"]');
  await frame.click('.h5p-bucket-lab-check');
  assert.equal((await question(frame)).score, 1);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
