// The SCORM packages from make dist, unpacked and launched the way an LMS does: a host page runs
// the real scorm-again runtime (window.API / window.API_1484_11) and iframes the package's launch
// page. A scripted learner meets a 429 and does the quick check; the test reads the data model
// back from the runtime.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
import { openPage } from './harness.mjs';
import { answerSome, quizShown } from './lesson-helpers.mjs';
import { zipEntries } from '../lms/packages.mjs';
import { answerQuickCheck, collectStatements, doQuickCheck, newQuestions, sendUntilRefused, usePackages } from '../lms/learner.mjs';
import { LAUNCHES, pack, zipName } from '../../scripts/scorm.mjs';
import { readProgress } from '../../www/lms/scorm.js';
import { readTable } from '../../scripts/locales.mjs';
import { shippedPolicy } from '../../scripts/csp.mjs';
import { startLrs } from '../lms/lrs-stand-in.mjs';


/**
 * The LMS's page: scorm-again's `version` API under its standard name, the learner's id loaded
 * into it, every call of `spied` recorded in window.calls, then the package (`lang`'s) in an
 * iframe at the page its manifest's resource names, as an LMS launches it. `setup` is more script
 * run before the iframe loads (a fault to inject). A `?cmi=` JSON in the page's address replaces
 * the learner's data: what the LMS hands back when the learner resumes a later sitting.
 */
function hostPage(version, { setup = '', lang = 'pt-BR' } = {}) {
  const folder = zipName(version, lang).replace(/\.zip$/, '');
  const [klass, global, spied, learner] = version === '1.2'
    ? ['Scorm12API', 'API', ['LMSInitialize', 'LMSSetValue', 'LMSCommit', 'LMSFinish'], '{ core: { student_id: "learner-7" } }']
    : ['Scorm2004API', 'API_1484_11', ['Initialize', 'SetValue', 'Commit', 'Terminate'], '{ learner_id: "learner-7", scaled_passing_score: "0.5" }'];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>LMS</title>
<script src="runtime/scorm-again.min.js"></script>
<script>
  const api = new ${klass}({ logLevel: 5 });
  const resumed = new URLSearchParams(location.search).get('cmi');
  api.loadFromJSON(resumed ? JSON.parse(resumed) : ${learner});
  window.calls = [];
  for (const name of ${JSON.stringify(spied)}) {
    const real = api[name].bind(api);
    api[name] = (...args) => { calls.push(\`\${name}(\${args.join(', ')})\`); return real(...args); };
  }
  window.${global} = api;
  ${setup}
</script></head>
<body><iframe id="sco" title="lesson" width="1000" height="900"></iframe><script>
  fetch('${folder}/imsmanifest.xml').then((response) => response.text()).then((text) => {
    const launch = new DOMParser().parseFromString(text, 'application/xml').querySelector('resource').getAttribute('href');
    document.getElementById('sco').src = '${folder}/' + launch;
  });
</script></body></html>`;
}

/** A host page's `setup` that records the name of every call of the API, whatever it is, in window.order. */
function recordOrder(version) {
  const names = version === '1.2'
    ? ['LMSInitialize', 'LMSGetValue', 'LMSSetValue', 'LMSCommit', 'LMSFinish', 'LMSGetLastError', 'LMSGetErrorString', 'LMSGetDiagnostic']
    : ['Initialize', 'GetValue', 'SetValue', 'Commit', 'Terminate', 'GetLastError', 'GetErrorString', 'GetDiagnostic'];
  return `window.order = [];
  for (const name of ${JSON.stringify(names)}) {
    const real = api[name].bind(api);
    api[name] = (...args) => { order.push(name); return real(...args); };
  }`;
}

const env = usePackages({ scorm: pack }, { runtime: 'node_modules/scorm-again/dist' }, {
  'lms12.html': hostPage('1.2'),
  'lms2004.html': hostPage('2004'),
  'lms-broken.html': hostPage('2004', { setup: 'api.SetValue = () => { throw new Error("database down"); };' }),
  'lms12-en.html': hostPage('1.2', { lang: 'en' }),
  'lms2004-en.html': hostPage('2004', { lang: 'en' }),
  'lms12-order.html': hostPage('1.2', { setup: recordOrder('1.2') }),
  'lms2004-order.html': hostPage('2004', { setup: recordOrder('2004') }),
  // An LMS that refuses to open the session (Initialize answers false).
  'lms2004-refusing.html': hostPage('2004', { setup: 'api.Initialize = () => "false";' }),
});

/** Opens `host` (with `cmi`, the learner's data) and resolves to [page, the lesson's frame once at `lessonUrl`, its diagram mounted]. */
async function openLms(host, cmi, lessonUrl = /\/index\.html$/) {
  const page = await openPage(env.browser);
  await collectStatements(page.context());
  const url = new URL(host, env.server.url);
  if (cmi) url.searchParams.set('cmi', JSON.stringify(cmi));
  await page.goto(url.href);
  return [page, await lessonFrame(page, lessonUrl)];
}

async function lessonFrame(page, url) {
  await page.waitForFunction((source) => [...document.querySelectorAll('iframe')].some((f) =>
    new RegExp(source).test(f.contentWindow?.location.href) && f.contentDocument?.querySelector('#bucket-widget .bl-widget[data-live]')), url.source);
  return page.frames().find((f) => url.test(f.url()));
}

/** The score as the SCO reports it: a percentage with at most two decimals. */
const percent = ({ correct, total }) => String(Math.round((correct / total) * 1e4) / 100);
const get = (page, element) => page.evaluate((name) => (window.API_1484_11 ? API_1484_11.GetValue(name) : API.LMSGetValue(name)), element);
/** `element` as the LMS keeps it once the session has ended (when GetValue is refused), from scorm-again's data model. */
const held = (page, element) => page.evaluate((name) => (window.API_1484_11 ?? window.API).getCMIValue(name), element);

test('lms: make dist packs SCORM 1.2 and 2004 in Portuguese and in English, named by version and language', () => {
  assert.deepEqual(Object.keys(env.packages.files).sort(),
    ['bucketlab-scorm12-en.zip', 'bucketlab-scorm12.zip', 'bucketlab-scorm2004-en.zip', 'bucketlab-scorm2004.zip']);
});

for (const [version, lang, zip] of ['1.2', '2004'].flatMap((v) => Object.keys(LAUNCHES).map((l) => [v, l, zipName(v, l)]))) {
  test(`lms: the SCORM ${version} ${lang} manifest is well-formed, launches ${LAUNCHES[lang].href}, lists exactly the package's files, LICENSE among them`, async () => {
    const entries = zipEntries(env.packages.files[zip]);
    const xml = await readFile(join(env.packages.dir, zip.replace('.zip', ''), 'imsmanifest.xml'), 'utf8');
    const page = await openPage(env.browser);
    const found = await page.evaluate(([text, version]) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
      const adlcp = doc.documentElement.lookupNamespaceURI('adlcp');
      const ns = doc.documentElement.namespaceURI;
      const all = (name) => [...doc.getElementsByTagNameNS(ns, name)];
      const organizations = all('organizations')[0];
      const organization = all('organization')[0];
      const item = all('item')[0];
      const resource = all('resource')[0];
      return {
        ns, adlcp, root: doc.documentElement.localName,
        schemaversion: all('schemaversion')[0]?.textContent,
        defaultOrg: organizations.getAttribute('default') === organization.getAttribute('identifier'),
        itemRef: item.getAttribute('identifierref') === resource.getAttribute('identifier'),
        resources: all('resource').length,
        scormType: resource.getAttributeNS(adlcp, version === '1.2' ? 'scormtype' : 'scormType'),
        href: resource.getAttribute('href'),
        title: [...organization.childNodes].find((n) => n.localName === 'title')?.textContent,
        files: all('file').map((f) => f.getAttribute('href')),
      };
    }, [xml, version]);
    await page.context().close();
    assert.equal(found.error, undefined);
    assert.equal(found.root, 'manifest');
    assert.deepEqual([found.ns, found.adlcp], version === '1.2'
      ? ['http://www.imsproject.org/xsd/imscp_rootv1p1p2', 'http://www.adlnet.org/xsd/adlcp_rootv1p2']
      : ['http://www.imsglobal.org/xsd/imscp_v1p1', 'http://www.adlnet.org/xsd/adlcp_v1p3']);
    assert.equal(found.schemaversion, version === '1.2' ? '1.2' : '2004 4th Edition');
    assert.ok(found.defaultOrg && found.itemRef, 'the organization and item point at the resource');
    assert.equal(found.resources, 1);
    assert.equal(found.scormType, 'sco');
    assert.equal(found.href, LAUNCHES[lang].href);
    assert.ok(found.title.startsWith(`${readTable(lang, 'lms').lessonName} / `), `${found.title}: the launched language's name first`);
    assert.deepEqual(found.files.sort(), entries.filter((e) => e !== 'imsmanifest.xml').sort());
    for (const page of ['index.html', 'en.html', 'lms/lesson.']) {
      assert.ok(entries.some((e) => e.startsWith(page)), `${page} in the zip`);
    }
    assert.equal(await readFile(join(env.packages.dir, zip.replace('.zip', ''), 'LICENSE'), 'utf8'), await readFile(join(ROOT, 'LICENSE'), 'utf8'));
    assert.ok(!entries.some((e) => /\.(gz|br|zip)$|^_headers$|^\.nojekyll$/.test(e)), 'no host files or compressed copies');
  });
}

for (const version of ['1.2', '2004']) {
  test(`lms: SCORM ${version}: Initialize is the lesson's first call, on the page that starts the session and on the other language's page that carries it on`, async () => {
    const [page, start] = await openLms(version === '1.2' ? 'lms12-order.html' : 'lms2004-order.html');
    const initialize = version === '1.2' ? 'LMSInitialize' : 'Initialize';
    const order = () => page.evaluate(() => window.order);
    assert.equal((await order())[0], initialize);
    const before = (await order()).length;
    await start.click('.lang-switch a[data-lang=en]');
    await lessonFrame(page, /\/en\.html/);
    // The first page's goodbye (the time so far, its exit, a commit), then the English page,
    // which asks to initialise before anything else.
    const [set, commit] = version === '1.2' ? ['LMSSetValue', 'LMSCommit'] : ['SetValue', 'Commit'];
    assert.deepEqual((await order()).slice(before, before + 4), [set, set, commit, initialize]);
    // Refused as already initialised, it carries the session on: no warning, and the session is still open.
    assert.equal(await get(page, version === '1.2' ? 'cmi.core.lesson_status' : 'cmi.completion_status'), 'incomplete');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('lms: SCORM 1.2 in scorm-again: incomplete at launch, completed with the score after a 429 and the quick check', async () => {
  const [page, start] = await openLms('lms12.html');
  assert.equal(await get(page, 'cmi.core.lesson_status'), 'incomplete');
  // Its snippets would point into the package, behind the LMS's login: no embed panel here.
  assert.equal(await start.locator('#embed-panel').isHidden(), true);
  // The learner switches to English first: the second page carries on with the same session.
  await start.click('.lang-switch a[data-lang=en]');
  const frame = await lessonFrame(page, /\/en\.html/);
  assert.ok(await sendUntilRefused(frame) >= 1);
  assert.equal(await get(page, 'cmi.core.lesson_status'), 'incomplete', 'a 429 alone does not complete');
  const score = await doQuickCheck(frame);
  assert.equal(score.answered, score.total);
  assert.equal(await get(page, 'cmi.core.lesson_status'), 'completed');
  assert.deepEqual(await Promise.all(['raw', 'min', 'max'].map((k) => get(page, `cmi.core.score.${k}`))),
    [percent(score), '0', '100']);
  // Leaving the page commits and, the learner being done, finishes.
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  await page.waitForFunction(() => calls.includes('LMSFinish()'));
  const calls = await page.evaluate(() => window.calls);
  assert.equal(calls[0], 'LMSInitialize()');
  // The English page's Initialize is refused as "already initialized", and it carries the session on.
  assert.equal(calls.filter((c) => c === 'LMSInitialize()').length, 2, calls.join());
  // Each save stands for the goodbye commit, which an LMS page navigating away may cancel: the
  // time so far and the exit of a sitting left unfinished go with it.
  // (The English page's first save, of its language alone, waits for the next commit.)
  const save = calls.findIndex((c) => c.startsWith('LMSSetValue(cmi.suspend_data') && c.includes('"refused":true'));
  assert.match(calls.slice(save + 1, save + 4).join(), /^LMSSetValue\(cmi\.core\.session_time, \d{4}:\d\d:\d\d\.\d\d\),LMSSetValue\(cmi\.core\.exit, suspend\),LMSCommit\(\)$/);
  assert.ok(calls.lastIndexOf('LMSCommit()') < calls.indexOf('LMSFinish()'));
  assert.ok(calls.includes('LMSSetValue(cmi.core.lesson_status, completed)'));
  assert.equal(await page.evaluate(() => API.isTerminated()), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: SCORM 2004 in scorm-again: completion, success against the LMS\'s passing score, raw/min/max/scaled', async () => {
  const [page, frame] = await openLms('lms2004.html');
  assert.equal(await get(page, 'cmi.completion_status'), 'incomplete');
  // Under the quick check, what completes the lesson in the course, as it goes.
  const said = readTable('pt-BR', 'lms');
  const note = () => frame.textContent('#algorithm-lab + .course-progress');
  assert.equal(await note(), said.progressBoth);
  const score = await doQuickCheck(frame);
  assert.equal(await get(page, 'cmi.completion_status'), 'incomplete', 'the quick check alone does not complete');
  assert.equal(await note(), said.progress429, 'a full score, and what is still missing said');
  const scaled = score.correct / score.total;
  assert.equal(await get(page, 'cmi.success_status'), scaled >= 0.5 ? 'passed' : 'failed');
  await sendUntilRefused(frame);
  assert.equal(await get(page, 'cmi.completion_status'), 'completed');
  assert.equal(await note(), said.progressDone);
  assert.deepEqual(await Promise.all(['raw', 'min', 'max'].map((k) => get(page, `cmi.score.${k}`))),
    [percent(score), '0', '100']);
  assert.ok(Math.abs(Number(await get(page, 'cmi.score.scaled')) - scaled) < 1e-4);
  const statements = await frame.evaluate(() => window.statements);
  assert.deepEqual([...new Set(statements.map((s) => s.actor.account?.name))], ['learner-7']);
  assert.deepEqual(statements.map((s) => s.verb.id.split('/').pop()).filter((v) => v !== 'answered'),
    ['experienced', 'completed', 'interacted', 'completed']);
  // The second `completed` is the lesson's own (the quick check's came first), once the 429 made it whole.
  assert.equal(statements.at(-1).object.id, statements[0].object.id);
  // Passed or not by the LMS's passing score (0.5 here), as cmi.success_status says.
  assert.deepEqual(statements.at(-1).result, { completion: true, success: scaled >= 0.5 });
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  await page.waitForFunction(() => calls.includes('Terminate()'));
  const calls = await page.evaluate(() => window.calls);
  assert.deepEqual(calls.slice(-3), ['SetValue(cmi.exit, normal)', 'Commit()', 'Terminate()']);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const version of ['1.2', '2004']) {
  test(`lms: the English SCORM ${version} package launches the English lesson, which reports to the LMS`, async () => {
    const page = await openPage(env.browser);
    await collectStatements(page.context());
    await page.goto(new URL(version === '1.2' ? 'lms12-en.html' : 'lms2004-en.html', env.server.url).href);
    const frame = await lessonFrame(page, /\/bucketlab-scorm(12|2004)-en\/en\.html$/);
    assert.equal(await frame.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await get(page, version === '1.2' ? 'cmi.core.lesson_status' : 'cmi.completion_status'), 'incomplete');
    assert.ok(await sendUntilRefused(frame) >= 1);
    const statements = await frame.evaluate(() => window.statements);
    assert.deepEqual([...new Set(statements.map((s) => s.actor.account?.name))], ['learner-7']);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('lms: an LMS whose API throws costs the learner nothing: one warning, the bucket works', async () => {
  const [page, frame] = await openLms('lms-broken.html');
  assert.ok(await sendUntilRefused(frame) >= 1);
  await doQuickCheck(frame);
  assert.deepEqual(page.problems, [
    'warning: bucketlab: the LMS\'s SCORM 2004 API SetValue(cmi.completion_status, incomplete) threw database down; the lesson keeps working without it',
  ]);
  assert.ok((await frame.evaluate(() => window.statements)).some((s) => s.verb.id.endsWith('/completed')));
  await page.context().close();
});

test('lms: the package\'s pages carry the site\'s policy themselves (an LMS serves no _headers): an address\'s own LRS is refused by it', async () => {
  const policy = shippedPolicy(join(env.packages.site, '_headers'));
  for (const page of ['index.html', 'en.html', 'embed.html']) {
    const html = await readFile(join(env.packages.dir, 'bucketlab-scorm2004', page), 'utf8');
    const metas = [...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/g)].map((m) => m[1].replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
    assert.deepEqual(metas, [policy], page);
    assert.ok(html.indexOf('http-equiv') < html.indexOf('<script'), `${page}: the policy comes before every script`);
  }
  // A crafted link to the package, naming an LRS of its own: the policy keeps the statements home.
  const outside = await startLrs();
  try {
    const page = await openPage(env.browser);
    const launch = new URLSearchParams({ endpoint: outside.endpoint, auth: 'Basic eDp4', actor: JSON.stringify({ mbox: 'mailto:x@example.org' }) });
    await page.goto(new URL(`bucketlab-scorm2004/en.html?${launch}`, env.server.url).href);
    await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
    await sendUntilRefused(page.mainFrame());
    await page.waitForFunction(() => window.bucketlab.xapi.pending === 2);
    const origin = new URL(outside.endpoint).origin;
    assert.ok(page.problems.some((p) => p.startsWith(`warning: bucketlab: the page's Content-Security-Policy (connect-src) refuses the LRS at ${origin}`)), page.problems.join('\n'));
    assert.equal(outside.requests, 0);
    await page.context().close();
  } finally {
    await outside.close();
  }
});

test('lms: the package opened with no LMS around does nothing visible and logs nothing', async () => {
  const page = await openPage(env.browser);
  await collectStatements(page);
  await page.goto(new URL('bucketlab-scorm12/index.html', env.server.url).href);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await page.locator('#bucket-widget').scrollIntoViewIfNeeded(); // the panel under it loads when near
  await page.locator('#embed-panel summary').waitFor(); // offered outside an LMS
  assert.ok(await sendUntilRefused(page.mainFrame()) >= 1);
  await page.waitForFunction(() => window.statements.length === 2);
  await page.goto('about:blank');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: a package the LMS opens in a new window finds the API through its opener', async () => {
  const page = await openPage(env.browser);
  await page.goto(new URL('lms12.html', env.server.url).href);
  // Moodle's "new window" display: the LMS page opens the SCO and keeps the API.
  const [popup] = await Promise.all([
    page.context().waitForEvent('page'),
    page.evaluate(() => { document.getElementById('sco').remove(); window.open('bucketlab-scorm12/en.html'); }),
  ]);
  await popup.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await sendUntilRefused(popup.mainFrame());
  const score = await doQuickCheck(popup.mainFrame());
  assert.equal(await get(page, 'cmi.core.lesson_status'), 'completed');
  assert.equal(await get(page, 'cmi.core.score.raw'), percent(score));
  await popup.close({ runBeforeUnload: true });
  await page.waitForFunction(() => calls.includes('LMSFinish()'));
  await page.context().close();
});

/** What the SCO set through the spied calls: `element`'s last value, or undefined. */
const lastSet = (calls, element) => calls.map((c) => c.match(/^(?:LMS)?SetValue\(([^,]+), (.*)\)$/s))
  .filter((m) => m?.[1] === element).at(-1)?.[2];

/** A session time as seconds: 1.2's HHHH:MM:SS.SS, 2004's ISO 8601 PT…H…M…S. */
function sessionSeconds(version, text) {
  const match = version === '1.2'
    ? text.match(/^(\d{4}):([0-5]\d):([0-5]\d(?:\.\d{2}))$/)
    : text.match(/^PT(?:(\d+)H)?(?:(\d+)M)?(\d+(?:\.\d{1,2})?)S$/);
  assert.ok(match, `session time "${text}" in SCORM ${version}'s format`);
  const [h = 0, m = 0, s] = match.slice(1).map((n) => Number(n ?? 0));
  return h * 3600 + m * 60 + s;
}

test('lms: SCORM 2004 with a passing score of 0.5: half the quick check right passes, in the LMS and in the statements alike', async () => {
  const [page, frame] = await openLms('lms2004.html');
  await sendUntilRefused(frame);
  const total = await frame.evaluate(async () => {
    await window.bucketlab.loadLab();
    return document.querySelectorAll('#algorithm-lab .quiz-question').length;
  });
  const score = await answerQuickCheck(frame, { right: total / 2 });
  assert.deepEqual([score.correct, score.total], [total / 2, total]);
  assert.equal(await get(page, 'cmi.success_status'), 'passed');
  const completed = (await frame.evaluate(() => window.statements)).filter((s) => s.verb.id.endsWith('/completed'));
  assert.deepEqual(completed.map((s) => s.result.success), [true, true], 'the quick check and the lesson, passed at 0.5 rather than 70 %');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: "New questions" is practice: SCORM 2004 keeps the best score and passed, xAPI gets one completed', async () => {
  const [page, frame] = await openLms('lms2004.html');
  await sendUntilRefused(frame);
  const first = await answerQuickCheck(frame, { right: true });
  assert.equal(first.correct, first.total);
  assert.deepEqual([await get(page, 'cmi.score.raw'), await get(page, 'cmi.success_status'), await get(page, 'cmi.completion_status')],
    ['100', 'passed', 'completed']);
  await newQuestions(frame);
  const practice = await answerQuickCheck(frame, { right: false });
  assert.equal(practice.correct, 0);
  assert.deepEqual([await get(page, 'cmi.score.raw'), await get(page, 'cmi.score.scaled'), await get(page, 'cmi.success_status')],
    ['100', '1', 'passed'], 'a worse set reports nothing');
  const calls = await page.evaluate(() => window.calls);
  assert.deepEqual(calls.filter((c) => c.startsWith('SetValue(cmi.score.raw')), ['SetValue(cmi.score.raw, 100)']);
  assert.ok(!calls.includes('SetValue(cmi.success_status, failed)'), calls.join('\n'));
  const statements = await frame.evaluate(() => window.statements);
  const completed = statements.filter((s) => s.verb.id.endsWith('/completed'));
  assert.deepEqual(completed.map((s) => s.object.id.endsWith('#quick-check')), [true, false],
    'the quick check once, then the lesson once');
  assert.equal(completed[0].result.score.scaled, 1);
  assert.deepEqual(completed[1].result, { completion: true, success: true });
  assert.equal(statements.filter((s) => s.verb.id.endsWith('/answered')).length, first.total, 'the practice set sends no statement');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: a better practice set raises the SCORM 1.2 score; a worse one after it lowers nothing', async () => {
  const [page, frame] = await openLms('lms12.html');
  const wrong = await answerQuickCheck(frame, { right: false });
  assert.equal(await get(page, 'cmi.core.score.raw'), percent(wrong));
  await newQuestions(frame);
  await answerQuickCheck(frame, { right: true });
  assert.equal(await get(page, 'cmi.core.score.raw'), '100');
  await newQuestions(frame);
  await answerQuickCheck(frame, { right: false });
  assert.equal(await get(page, 'cmi.core.score.raw'), '100');
  assert.equal(readProgress(await get(page, 'cmi.suspend_data')).best.correct, wrong.total);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// Two sittings of one attempt: the first leaves half done (suspend), the LMS hands its
// suspend_data back with entry "resume", and the second does only the other half.
for (const version of ['1.2', '2004']) {
  test(`lms: SCORM ${version} resumes a later sitting where the last one left, and reports each sitting's time`, async () => {
    const host = version === '1.2' ? 'lms12.html' : 'lms2004.html';
    const [status, exit, entry] = version === '1.2'
      ? ['cmi.core.lesson_status', 'cmi.core.exit', 'cmi.core.entry'] : ['cmi.completion_status', 'cmi.exit', 'cmi.entry'];
    const [page, start] = await openLms(host);
    const opened = Date.now();
    // 1.2: the 429 in the first sitting, on the English page (the language link carries the
    // session on); 2004: the quick check first.
    await start.click('.lang-switch a[data-lang=en]');
    const frame = await lessonFrame(page, /\/en\.html/);
    let score;
    if (version === '1.2') await sendUntilRefused(frame);
    else score = await answerQuickCheck(frame, { right: true });
    const left = Date.now();
    await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
    await page.waitForFunction((finish) => calls.includes(finish), version === '1.2' ? 'LMSFinish()' : 'Terminate()');
    const calls = await page.evaluate(() => window.calls);
    assert.equal(lastSet(calls, exit), 'suspend');
    const time = sessionSeconds(version, lastSet(calls, version === '1.2' ? 'cmi.core.session_time' : 'cmi.session_time'));
    // Counted from the first page, not from the English page that carried the session on.
    assert.ok(time >= (left - opened) / 1000 - 0.01, `${time} s for a sitting of at least ${(left - opened) / 1000} s`);
    const suspendData = await held(page, 'cmi.suspend_data');
    const { answers, ...progress } = readProgress(suspendData);
    // Left on the English page, which the next sitting opens.
    assert.deepEqual(progress, version === '1.2'
      ? { refused: true, quizDone: false, best: null, lang: 'en' }
      : { refused: false, quizDone: true, best: { correct: score.total, total: score.total }, lang: 'en' });
    assert.equal(Object.keys(answers).length, version === '1.2' ? 0 : score.total);
    assert.equal(await held(page, status), 'incomplete');
    await page.context().close();

    const learner = version === '1.2'
      ? { core: { student_id: 'learner-7', entry: 'resume', lesson_status: 'incomplete' }, suspend_data: suspendData }
      : { learner_id: 'learner-7', scaled_passing_score: '0.5', entry: 'resume', completion_status: 'incomplete', success_status: 'passed',
        score: { raw: '100', min: '0', max: '100', scaled: '1' }, suspend_data: suspendData };
    // It opens on the English page, where the first sitting was left.
    const [again, resumed] = await openLms(host, learner, /\/en\.html/);
    assert.equal(await get(again, entry), 'resume');
    if (version === '1.2') {
      score = await answerQuickCheck(resumed, { right: true });
      assert.equal(await get(again, 'cmi.core.score.raw'), '100');
    } else {
      // The first sitting's answers are on screen again, checked as they were.
      await resumed.evaluate(() => window.bucketlab.loadLab());
      await resumed.waitForSelector('#algorithm-lab .quiz-question .quiz-check');
      assert.deepEqual(await resumed.evaluate(() => window.bucketlab.lab.quiz.score), score);
      assert.deepEqual(await resumed.evaluate(() => window.bucketlab.lab.quiz.answers), answers);
      // A worse set in the second sitting is practice too: the first sitting's 100 stays.
      await newQuestions(resumed);
      await answerQuickCheck(resumed, { right: false });
      assert.deepEqual([await get(again, 'cmi.score.raw'), await get(again, 'cmi.success_status')], ['100', 'passed']);
      assert.ok(!(await again.evaluate(() => window.calls)).some((c) => c.startsWith('SetValue(cmi.score.raw')));
      await sendUntilRefused(resumed);
    }
    assert.equal(await get(again, status), 'completed', 'the half done in the first sitting counts');
    await again.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
    await again.waitForFunction((finish) => calls.includes(finish), version === '1.2' ? 'LMSFinish()' : 'Terminate()');
    sessionSeconds(version, lastSet(await again.evaluate(() => window.calls), version === '1.2' ? 'cmi.core.session_time' : 'cmi.session_time'));
    assert.deepEqual(again.problems, []);
    await again.context().close();
  });
}

test('lms: SCORM 1.2: the first set\'s answers of a sitting left half way are on screen again in the resumed one, not a later set\'s', async () => {
  const [page, frame] = await openLms('lms12.html');
  await frame.evaluate(() => window.bucketlab.loadLab());
  await frame.waitForSelector('#algorithm-lab .quiz-question .quiz-check');
  const given = await answerSome(frame, [0, 1, 2], 1);
  // "New questions", and one of them answered: a later set's ids are the first's, with other
  // numbers, so its answers are not the first set's to show again.
  await newQuestions(frame);
  await answerSome(frame, [5], 0);
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  await page.waitForFunction(() => calls.includes('LMSFinish()'));
  // Kept with the sitting's last commit, not one commit an answer.
  const calls = await page.evaluate(() => window.calls);
  assert.equal(calls.filter((c) => c === 'LMSCommit()').length, 1, calls.join());
  const suspendData = await held(page, 'cmi.suspend_data');
  assert.deepEqual(readProgress(suspendData).answers, given);
  await page.context().close();

  const [again, resumed] = await openLms('lms12.html', { core: { student_id: 'learner-7', entry: 'resume', lesson_status: 'incomplete' }, suspend_data: suspendData });
  await resumed.evaluate(() => window.bucketlab.loadLab());
  await resumed.waitForSelector('#algorithm-lab .quiz-question .quiz-check');
  const shown = await quizShown(resumed);
  assert.deepEqual(shown.checked, given);
  assert.equal(shown.score.answered, 3);
  // Nothing was sent again for them: no answered statement in this sitting yet.
  assert.deepEqual((await resumed.evaluate(() => window.statements)).map((s) => s.verb.id.split('/').pop()), ['experienced']);
  assert.equal(await resumed.textContent('#algorithm-lab + .course-progress'), readTable('pt-BR', 'lms').progressBoth);
  assert.deepEqual(again.problems, []);
  await again.context().close();
});

for (const version of ['1.2', '2004']) {
  test(`lms: SCORM ${version} closed half done suspends and finishes; a later sitting that opens on the remembered language carries on`, async () => {
    const host = version === '1.2' ? 'lms12.html' : 'lms2004.html';
    const [set, commit, finish, exit] = version === '1.2'
      ? ['LMSSetValue', 'LMSCommit()', 'LMSFinish()', 'cmi.core.exit'] : ['SetValue', 'Commit()', 'Terminate()', 'cmi.exit'];
    const [page, start] = await openLms(host);
    // The language link (remembered for the package's folder) carries the session on, unfinished.
    await start.click('.lang-switch a[data-lang=en]');
    const frame = await lessonFrame(page, /\/en\.html/);
    assert.ok(!(await page.evaluate(() => window.calls)).includes(finish));
    await sendUntilRefused(frame);
    // Closed half done: suspended, committed, then finished before the SCO unloads.
    await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
    await page.waitForFunction((finish) => calls.includes(finish), finish);
    const calls = await page.evaluate(() => window.calls);
    assert.deepEqual(calls.slice(-3), [`${set}(${exit}, suspend)`, commit, finish]);
    assert.equal(await page.evaluate(() => (window.API_1484_11 ?? window.API).isTerminated()), true);
    // The next sitting opens the Portuguese page, which goes on to the remembered English one:
    // that is no close, and the English page carries the session on.
    await page.goto(new URL(host, env.server.url).href);
    await lessonFrame(page, /\/en\.html/);
    const again = await page.evaluate(() => window.calls);
    assert.ok(again.some((c) => c.includes(`${exit}, suspend`)), again.join());
    assert.ok(!again.includes(finish), again.join());
    assert.equal(await get(page, version === '1.2' ? 'cmi.core.lesson_status' : 'cmi.completion_status'), 'incomplete');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

for (const version of ['1.2', '2004']) {
  test(`lms: SCORM ${version} keeps the section the learner was reading as the location, and a resumed sitting opens there`, async () => {
    const host = version === '1.2' ? 'lms12.html' : 'lms2004.html';
    const location = version === '1.2' ? 'cmi.core.lesson_location' : 'cmi.location';
    const resume = (place) => (version === '1.2'
      ? { core: { student_id: 'learner-7', entry: 'resume', lesson_status: 'incomplete', lesson_location: place } }
      : { learner_id: 'learner-7', entry: 'resume', completion_status: 'incomplete', location: place });
    const [page, frame] = await openLms(host);
    // Scrolled there until it stays (the sections above take their real height as they render).
    await frame.waitForFunction(() => {
      const section = document.getElementById('comparacao');
      const { top } = section.getBoundingClientRect();
      if (top >= 0 && top <= innerHeight / 3) return true;
      section.scrollIntoView();
      return false;
    }, null, { polling: 'raf' });
    await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
    await page.waitForFunction((finish) => calls.includes(finish), version === '1.2' ? 'LMSFinish()' : 'Terminate()');
    assert.equal(await held(page, location), 'comparacao');
    await page.context().close();

    const [again, resumed] = await openLms(host, resume('comparacao'));
    // There as the language link lands: the section's top in the window's upper third, its heading focused.
    await resumed.waitForFunction(() => {
      const { top } = document.getElementById('comparacao').getBoundingClientRect();
      return top >= 0 && top <= innerHeight / 3 && document.activeElement?.id === 'comparacao-titulo';
    });
    assert.deepEqual(again.problems, []);
    await again.context().close();

    // What the LMS hands back is checked: an element that is not one of the sections is no place.
    const [other, top] = await openLms(host, resume('bucket-widget'));
    await top.waitForFunction(() => performance.getEntriesByName('bucketlab:interactive').length);
    await top.evaluate(() => new Promise((resolve) => setTimeout(resolve)));
    assert.equal(await top.evaluate(() => scrollY), 0);
    assert.deepEqual(other.problems, []);
    await other.context().close();
  });
}

test('lms: SCORM 2004 completed, then the language link: the session stays open, and a better set on the other page raises the score', async () => {
  const [page, start] = await openLms('lms2004.html');
  await sendUntilRefused(start);
  const wrong = await answerQuickCheck(start, { right: false });
  assert.deepEqual([await get(page, 'cmi.completion_status'), await get(page, 'cmi.score.raw'), await get(page, 'cmi.success_status')],
    ['completed', percent(wrong), 'failed']);
  await start.click('.lang-switch a[data-lang=en]');
  const frame = await lessonFrame(page, /\/en\.html/);
  assert.ok(!(await page.evaluate(() => window.calls)).includes('Terminate()'), 'the switch does not end the session');
  // The set answered on the first page is there, done; a new one is the better try.
  await frame.evaluate(() => window.bucketlab.loadLab());
  await frame.waitForSelector('#algorithm-lab .quiz-question .quiz-check');
  assert.deepEqual(await frame.evaluate(() => window.bucketlab.lab.quiz.score), wrong);
  await newQuestions(frame);
  await answerQuickCheck(frame, { right: true });
  assert.deepEqual([await get(page, 'cmi.score.raw'), await get(page, 'cmi.success_status')], ['100', 'passed']);
  // Leaving the lesson itself ends it, as complete.
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  await page.waitForFunction(() => calls.includes('Terminate()'));
  assert.deepEqual((await page.evaluate(() => window.calls)).slice(-3), ['SetValue(cmi.exit, normal)', 'Commit()', 'Terminate()']);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: SCORM 1.2 relaunched by an LMS that keeps the score but not the suspend_data: a worse set lowers nothing', async () => {
  const learner = { core: { student_id: 'learner-7', entry: '', lesson_status: 'completed', score: { raw: '100', min: '0', max: '100' } } };
  const [page, frame] = await openLms('lms12.html', learner);
  assert.equal(await get(page, 'cmi.core.score.raw'), '100');
  await answerQuickCheck(frame, { right: false });
  assert.equal(await get(page, 'cmi.core.score.raw'), '100');
  assert.ok(!(await page.evaluate(() => window.calls)).some((c) => c.startsWith('LMSSetValue(cmi.core.score.raw')));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: SCORM 2004: Back after the language link carries the session on, and the lesson\'s completion reaches the LMS', async () => {
  const [page, start] = await openLms('lms2004.html');
  await start.click('.lang-switch a[data-lang=en]');
  const english = await lessonFrame(page, /\/en\.html/);
  // Back in the frame's history: the Portuguese page again, a new document.
  await english.evaluate(() => history.back());
  const frame = await lessonFrame(page, /\/index\.html/);
  const calls = await page.evaluate(() => window.calls);
  assert.ok(!calls.includes('Terminate()'), calls.join());
  assert.equal(calls.filter((c) => c === 'Initialize()').length, 3, 'each page asked; the later two carried the session on');
  await sendUntilRefused(frame);
  const score = await doQuickCheck(frame);
  assert.deepEqual([await get(page, 'cmi.completion_status'), await get(page, 'cmi.score.raw')], ['completed', percent(score)]);
  assert.equal(await frame.textContent('#algorithm-lab + .course-progress'), readTable('pt-BR', 'lms').progressDone);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: SCORM 1.2: a reload of the lesson\'s frame carries the session on, and the lesson\'s completion reaches the LMS', async () => {
  const [page, start] = await openLms('lms12.html');
  await sendUntilRefused(start);
  await start.evaluate(() => { window.beforeReload = true; location.reload(); });
  await page.waitForFunction(() => {
    const lesson = document.getElementById('sco').contentWindow;
    return !lesson.beforeReload && lesson.document.querySelector('#bucket-widget .bl-widget[data-live]');
  });
  const frame = await lessonFrame(page, /\/index\.html/);
  assert.ok(!(await page.evaluate(() => window.calls)).includes('LMSFinish()'));
  // The 429 met before the reload counts: the quick check completes the lesson.
  await doQuickCheck(frame);
  assert.equal(await get(page, 'cmi.core.lesson_status'), 'completed');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: an LMS that refuses to open the session: the note under the quick check says the course is not recording it', async () => {
  const [page, frame] = await openLms('lms2004-refusing.html');
  const said = readTable('pt-BR', 'lms');
  const note = () => frame.textContent('#algorithm-lab + .course-progress');
  assert.equal(await note(), said.progressOff);
  await sendUntilRefused(frame);
  await doQuickCheck(frame);
  assert.equal(await note(), said.progressOff, 'never that the course recorded it');
  assert.deepEqual(page.problems, ['warning: bucketlab: the LMS\'s SCORM 2004 API Initialize() answered false (error 0); the lesson keeps working without it']);
  await page.context().close();
});

for (const version of ['1.2', '2004']) {
  test(`lms: SCORM ${version}: each answer of the quick check is one interaction, on either language's page`, async () => {
    const [page, start] = await openLms(version === '1.2' ? 'lms12.html' : 'lms2004.html');
    await start.evaluate(() => window.bucketlab.loadLab());
    await start.waitForSelector('#algorithm-lab .quiz-question .quiz-check');
    const total = await start.evaluate(() => document.querySelectorAll('#algorithm-lab .quiz-question').length);
    const given = await answerSome(start, [0, 1], 1);
    // The rest on the English page, which shows the first two answered again and writes them no more.
    await start.click('.lang-switch a[data-lang=en]');
    const frame = await lessonFrame(page, /\/en\.html/);
    await frame.evaluate(() => window.bucketlab.loadLab());
    await frame.waitForSelector('#algorithm-lab .quiz-question .quiz-check');
    Object.assign(given, await answerSome(frame, Array.from({ length: total - 2 }, (_, i) => i + 2), 0));
    const answers = await frame.evaluate(() => window.bucketlab.lab.quiz.answers);
    assert.deepEqual(answers, given);
    const held = Object.values(await page.evaluate(() => (window.API_1484_11 ?? window.API).renderCMIToJSONObject().cmi.interactions));
    const prefix = version === '1.2' ? 'quick-check-' : 'urn:bucketlab:quick-check:';
    assert.deepEqual(held.map((i) => i.id), Object.keys(given).map((id) => `${prefix}${id}`));
    // 2004's choice responses are short identifiers (B/r as B_r), which Moodle checks as ^[\w.]{1,250}$.
    const written = (value) => (version === '1.2' ? value : value.replace(/[^\w.]/g, '_'));
    assert.deepEqual(held.map((i) => i[version === '1.2' ? 'student_response' : 'learner_response']), Object.values(given).map(written));
    if (version === '2004') for (const i of held) assert.match(`${i.learner_response} ${i.correct_responses[0].pattern}`, /^[\w.]{1,250} [\w.]{1,250}$/);
    // The right answers, as the checked questions mark them.
    const right = await frame.evaluate(() => Object.fromEntries([...document.querySelectorAll('#algorithm-lab .quiz-question')]
      .map((q) => [q.dataset.question, q.querySelector('.quiz-option--right input').value])));
    assert.deepEqual(held.map((i) => i.result), Object.entries(given).map(([id, value]) => (value === right[id] ? 'correct' : version === '1.2' ? 'wrong' : 'incorrect')));
    assert.deepEqual(held.map((i) => i.correct_responses[0].pattern), Object.keys(given).map((id) => written(right[id])));
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

for (const version of ['1.2', '2004']) {
  test(`lms: SCORM ${version}: a resumed sitting on another computer opens in the language the last one was left in`, async () => {
    const host = version === '1.2' ? 'lms12.html' : 'lms2004.html';
    const [page, start] = await openLms(host);
    // The learner switches to English and leaves at once: nothing else was saved on that page.
    await start.click('.lang-switch a[data-lang=en]');
    await lessonFrame(page, /\/en\.html/);
    await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
    await page.waitForFunction((finish) => calls.includes(finish), version === '1.2' ? 'LMSFinish()' : 'Terminate()');
    const suspendData = await held(page, 'cmi.suspend_data');
    assert.equal(readProgress(suspendData).lang, 'en');
    await page.context().close();

    // Another browser (a new context: no remembered choice): the LMS launches index.html, and the
    // page goes on to the English one, which carries the session on.
    const resume = version === '1.2'
      ? { core: { student_id: 'learner-7', entry: 'resume', lesson_status: 'incomplete' }, suspend_data: suspendData }
      : { learner_id: 'learner-7', entry: 'resume', completion_status: 'incomplete', suspend_data: suspendData };
    const [again, frame] = await openLms(host, resume, /\/en\.html/);
    assert.equal(await frame.evaluate(() => document.documentElement.lang), 'en');
    const calls = await again.evaluate(() => window.calls);
    assert.ok(!calls.includes(version === '1.2' ? 'LMSFinish()' : 'Terminate()'), calls.join());
    await sendUntilRefused(frame);
    assert.equal(readProgress(await get(again, 'cmi.suspend_data')).refused, true, 'the English page reports to the same session');
    assert.deepEqual(again.problems, []);
    await again.context().close();
  });
}
