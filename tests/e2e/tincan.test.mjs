// The xAPI ("Tin Can") packages from make dist, unpacked as an LMS unpacks an upload, then
// launched as an LMS launches their tincan.xml's activity: its launch page with the Tin Can
// launch's parameters (endpoint, auth, actor, registration, activity_id). The LRS is the stand-in
// in tests/lms/ (a real HTTP server on another origin that validates every statement with
// @learninglocker/xapi-validation); the site is built with it as `make dist LRS=…` would.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPage } from './harness.mjs';
import { zipEntries } from '../lms/packages.mjs';
import { answerQuickCheck, collectStatements, sendUntilRefused, usePackages } from '../lms/learner.mjs';
import { startLrs, statementProblems } from '../lms/lrs-stand-in.mjs';
import { LAUNCHES } from '../../scripts/scorm.mjs';
import { pack, tincanZipName } from '../../scripts/tincan.mjs';
import { readTable } from '../../scripts/locales.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const ACTIVITY = 'https://courses.example/rate-limiting/token-bucket';
const AUTH = 'Basic dGluOmNhbg==';
const ACTOR = { objectType: 'Agent', name: 'Bia', mbox: 'mailto:bia@example.org' };
const REGISTRATION = '0b7c3d2e-5f6a-4b8c-9d0e-1f2a3b4c5d6e';

let lrs;
const env = usePackages({ tincan: (site) => pack(site, ACTIVITY) }, {}, {}, async () => {
  lrs = await startLrs({ auth: AUTH });
  return [new URL(lrs.endpoint).origin];
});
after(async () => { await lrs?.close(); });

/** What an LMS reads of a package's tincan.xml (parsed by Chromium's XML parser). */
async function readTincan(folder) {
  const xml = await readFile(join(env.packages.dir, folder, 'tincan.xml'), 'utf8');
  const page = await openPage(env.browser);
  const found = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
    const ns = doc.documentElement.namespaceURI;
    const all = (name) => [...doc.getElementsByTagNameNS(ns, name)];
    const texts = (name) => all(name).map((e) => [e.getAttribute('lang'), e.textContent]);
    const [activity] = all('activity');
    return {
      root: doc.documentElement.localName, ns, activities: all('activity').length,
      id: activity.getAttribute('id'), type: activity.getAttribute('type'),
      names: texts('name'), descriptions: texts('description'), launches: texts('launch'),
    };
  }, xml);
  await page.context().close();
  return found;
}

test('lms: make dist packs xAPI (Tin Can) in Portuguese and in English', () => {
  assert.deepEqual(Object.keys(env.packages.files).sort(), ['bucketlab-xapi-en.zip', 'bucketlab-xapi.zip']);
});

for (const lang of Object.keys(LAUNCHES)) {
  test(`lms: the ${lang} tincan.xml names the lesson's one activity, in both languages, launched by ${LAUNCHES[lang].href}`, async () => {
    const zip = tincanZipName(lang);
    const found = await readTincan(zip.replace('.zip', ''));
    assert.equal(found.error, undefined);
    assert.deepEqual([found.root, found.ns, found.activities], ['tincan', 'http://projecttincan.com/tincan.xsd', 1]);
    assert.equal(found.id, ACTIVITY);
    assert.equal(found.type, 'http://adlnet.gov/expapi/activities/lesson');
    const other = Object.keys(LAUNCHES).find((l) => l !== lang);
    assert.deepEqual(found.names, [lang, other].map((l) => [l, readTable(l, 'lms').lessonName]));
    assert.deepEqual(found.descriptions, [lang, other].map((l) => [l, readTable(l, 'lesson').meta.description]));
    assert.deepEqual(found.launches, [[lang, LAUNCHES[lang].href]]);
    const entries = zipEntries(env.packages.files[zip]);
    for (const file of [LAUNCHES[lang].href, 'index.html', 'en.html', 'tincan.xml', 'LICENSE', 'THIRD-PARTY-NOTICES.txt']) {
      assert.ok(entries.includes(file), `${file} in ${zip}`);
    }
    assert.ok(!entries.some((e) => /\.(gz|br|zip|h5p)$|^_headers$|^imsmanifest\.xml$/.test(e)), 'no host files, compressed copies or other packages');
    assert.equal(await readFile(join(env.packages.dir, zip.replace('.zip', ''), 'LICENSE'), 'utf8'), await readFile(join(ROOT, 'LICENSE'), 'utf8'));
  });
}

test('lms: an LMS launches the xAPI package: every statement reaches the LRS valid, and the launched activity is completed', async () => {
  const folder = tincanZipName('en').replace('.zip', '');
  const { id, launches } = await readTincan(folder);
  const stored = lrs.statements.length;
  const page = await openPage(env.browser);
  await collectStatements(page);
  const launch = new URLSearchParams({ endpoint: lrs.endpoint, auth: AUTH, actor: JSON.stringify(ACTOR), registration: REGISTRATION, activity_id: id });
  await page.goto(new URL(`${folder}/${launches[0][1]}?${launch}`, env.server.url).href);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  const score = await answerQuickCheck(page.mainFrame(), { right: true });
  // The quick check alone does not complete the lesson: a refused request is the other half.
  await page.waitForFunction(() => window.bucketlab.xapi.pending === 0);
  assert.deepEqual(lrs.statements.slice(stored).filter((s) => s.object.id === ACTIVITY).map((s) => s.verb.id.split('/').pop()), ['experienced']);
  await sendUntilRefused(page.mainFrame());
  await page.waitForFunction(() => window.bucketlab.xapi.pending === 0);
  const delivered = lrs.statements.slice(stored);
  assert.deepEqual(delivered.map((s) => s.id), (await page.evaluate(() => window.statements)).map((s) => s.id));
  for (const statement of delivered) {
    assert.deepEqual(statementProblems(statement), [], JSON.stringify(statement));
    assert.equal(statement.context.registration, REGISTRATION);
    assert.deepEqual(statement.actor, ACTOR);
  }
  assert.deepEqual(lrs.refused, []);
  const quiz = delivered.find((s) => s.object.id === `${ACTIVITY}#quick-check`);
  assert.deepEqual(quiz.result.score, { scaled: 1, raw: score.total, min: 0, max: score.total });
  const lesson = delivered.at(-1);
  assert.equal(lesson.verb.id, 'http://adlnet.gov/expapi/verbs/completed');
  assert.equal(lesson.object.id, ACTIVITY);
  assert.deepEqual(lesson.result, { completion: true, success: true });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: a Tin Can launch with no activity_id and a Tin Can 0.9 account: the LRS takes every statement, and the lesson completed is tincan.xml\'s activity', async () => {
  const folder = tincanZipName('pt-BR').replace('.zip', '');
  const { id, launches } = await readTincan(folder);
  const stored = lrs.statements.length;
  const page = await openPage(env.browser);
  await collectStatements(page);
  // As SCORM Cloud and TinCanJS still send it: lists, and 0.9's names for the account's parts.
  const actor = { objectType: 'Agent', name: ['Bia'], account: [{ accountServiceHomePage: 'https://lms.example', accountName: 'bia-7' }] };
  const launch = new URLSearchParams({ endpoint: lrs.endpoint, auth: AUTH, actor: JSON.stringify(actor), registration: REGISTRATION });
  await page.goto(new URL(`${folder}/${launches[0][1]}?${launch}`, env.server.url).href);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await sendUntilRefused(page.mainFrame());
  await answerQuickCheck(page.mainFrame(), { right: true });
  await page.waitForFunction(() => window.bucketlab.xapi.pending === 0);
  assert.equal(await page.evaluate(() => window.bucketlab.xapi.dropped), 0);
  assert.deepEqual(lrs.refused, []);
  const delivered = lrs.statements.slice(stored);
  assert.deepEqual(delivered.map((s) => s.id), (await page.evaluate(() => window.statements)).map((s) => s.id));
  assert.deepEqual(delivered[0].actor, { objectType: 'Agent', name: 'Bia', account: { homePage: 'https://lms.example', name: 'bia-7' } });
  const lesson = delivered.at(-1);
  assert.deepEqual([lesson.verb.id.split('/').pop(), lesson.object.id], ['completed', id]);
  assert.equal(id, ACTIVITY);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lms: the xAPI package\'s pages carry the site\'s policy, which lets them reach the LRS it was built for', async () => {
  const html = await readFile(join(env.packages.dir, 'bucketlab-xapi', 'index.html'), 'utf8');
  const [policy] = [...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/g)].map((m) => m[1].replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
  assert.match(policy, new RegExp(`connect-src 'self' ${new URL(lrs.endpoint).origin}(;|$)`));
});
