// The course-platform parts that need no browser (www/lms/): the xAPI statements, validated by
// @learninglocker/xapi-validation; the launch settings and their refusals; the LRS queue against a
// real HTTP server that fails, hangs and refuses on request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as scormAgain from 'scorm-again';
import { anonymousActor, EXTENSIONS, statementMaker, VERBS } from '../../www/lms/statements.js';
import { LaunchError, readLaunch } from '../../www/lms/launch.js';
import { LrsQueue } from '../../www/lms/lrs.js';
import { beats, interaction, readProgress, ScormSession, sessionTime } from '../../www/lms/scorm.js';
import { startLrs, statementProblems } from '../lms/lrs-stand-in.mjs';

const tables = Object.fromEntries(['pt-BR', 'en'].map((lang) =>
  [lang, JSON.parse(readFileSync(new URL(`../../locales/${lang}/lms.json`, import.meta.url), 'utf8'))]));
const question = {
  id: 'edge', prompt: 'How many pass?', answer: '10',
  choices: [{ value: '10', label: '10' }, { value: '20', label: '20' }], response: '20',
};

function allStatements(maker) {
  return [
    maker.experienced(),
    maker.interacted({ allowed: false, status: 429, capacity: 5, refillRate: 1 }),
    maker.answered(question),
    maker.answered({ ...question, response: '10' }),
    maker.completed({ correct: 6, total: 8 }, true),
    maker.lessonCompleted(true),
    maker.lessonCompleted(undefined),
  ];
}

test('lms: every statement the lesson makes validates, for an anonymous and a launched learner', () => {
  const makers = [
    statementMaker({ lesson: 'http://127.0.0.1:8000/', actor: anonymousActor('http://127.0.0.1:8000'), lang: 'en', tables }),
    statementMaker({
      lesson: 'https://lms.example/activities/bucketlab', lang: 'pt-BR', tables,
      actor: { objectType: 'Agent', name: 'Ana', mbox: 'mailto:ana@example.org' },
      registration: 'f3b8c0de-1a2b-4c3d-8e9f-0123456789ab',
    }),
  ];
  for (const [maker, lang] of makers.map((m, i) => [m, ['en', 'pt-BR'][i]])) {
    const statements = allStatements(maker);
    assert.deepEqual([...new Set(statements.map((s) => s.context.language))], [lang], 'the page\'s language, in every statement');
    assert.deepEqual(statements.map((s) => s.verb.id.split('/').pop()), [...VERBS.slice(0, 3), 'answered', 'completed', 'completed', 'completed']);
    for (const statement of statements) assert.deepEqual(statementProblems(statement), [], JSON.stringify(statement));
  }
});

test('lms: statements carry what the LRS needs: result, response, scaled score, both languages', () => {
  const maker = statementMaker({ lesson: 'https://x.example/l/', actor: anonymousActor('https://x.example'), lang: 'en', tables });
  const [experienced, interacted, wrong, right, completed, lesson, lessonUnknown] = allStatements(maker);
  assert.deepEqual(experienced.object.definition.name, { 'pt-BR': tables['pt-BR'].lessonName, en: tables.en.lessonName });
  assert.equal(interacted.result.response, '429');
  assert.equal(interacted.object.definition.name.en, 'Token-bucket diagram');
  assert.deepEqual(interacted.result.extensions, { [EXTENSIONS.capacity]: 5, [EXTENSIONS.refillRate]: 1 });
  assert.deepEqual(wrong.result, { success: false, response: '20' });
  assert.deepEqual(right.result, { success: true, response: '10' });
  assert.deepEqual(wrong.object.definition.correctResponsesPattern, ['10']);
  assert.equal(wrong.object.id, 'https://x.example/l/#quick-check/edge');
  // An answer belongs to the quick check and to the lesson (an LRS's report by either finds it).
  assert.deepEqual(wrong.context.contextActivities.parent.map((a) => a.id), ['https://x.example/l/#quick-check', 'https://x.example/l/']);
  assert.deepEqual(completed.context.contextActivities.parent.map((a) => a.id), ['https://x.example/l/']);
  assert.equal(lesson.context.contextActivities, undefined, 'the lesson is the top');
  assert.deepEqual(completed.result.score, { scaled: 0.75, raw: 6, min: 0, max: 8 });
  assert.equal(completed.object.id, 'https://x.example/l/#quick-check');
  // The lesson's own completion is on the launched activity, defined as `experienced` defines it
  // (an LRS keeps one definition per id), with no score of its own.
  assert.equal(lesson.object.id, 'https://x.example/l/');
  assert.deepEqual(lesson.object.definition, experienced.object.definition);
  assert.deepEqual(lesson.result, { completion: true, success: true });
  assert.deepEqual(lessonUnknown.result, { completion: true });
  assert.notEqual(experienced.id, interacted.id);
});

test('lms: the diagram\'s activity has one name for every learner; the B and r each one set are in the result', () => {
  const maker = statementMaker({ lesson: 'https://x.example/l/', actor: anonymousActor('https://x.example'), lang: 'pt-BR', tables });
  const [one, other] = [{ capacity: 2.5, refillRate: 0.5 }, { capacity: 5, refillRate: 1 }].map((bucket) => maker.interacted({ status: 429, ...bucket }));
  // An LRS keeps one definition per activity id: learners with other buckets must not rename it.
  assert.deepEqual(one.object, other.object);
  assert.deepEqual(one.object.definition.name, { 'pt-BR': 'Diagrama do balde de tokens', en: 'Token-bucket diagram' });
  assert.deepEqual(one.result.extensions, { [EXTENSIONS.capacity]: 2.5, [EXTENSIONS.refillRate]: 0.5 });
  assert.deepEqual(statementProblems(one), []);
});

test('lms: the validator really refuses a broken statement (so the checks above mean something)', () => {
  const maker = statementMaker({ lesson: 'https://x.example/', actor: anonymousActor('https://x.example'), lang: 'en', tables });
  const broken = maker.experienced();
  broken.verb.id = 'experienced';
  broken.actor = { objectType: 'Agent', mbox: 'ana@example.org' };
  assert.equal(statementProblems(broken).length, 2, statementProblems(broken).join('\n'));
});

test('lms: the launch reads a Tin Can launch and the page settings', () => {
  const tinCan = readLaunch(new URLSearchParams({
    endpoint: 'https://lrs.example/xAPI/', auth: 'Basic abc', registration: 'f3b8c0de-1a2b-4c3d-8e9f-0123456789ab',
    actor: JSON.stringify({ name: ['Ana'], mbox: ['mailto:ana@example.org'] }), activity_id: 'https://courses.example/bucketlab',
  }));
  assert.deepEqual(tinCan, {
    endpoint: 'https://lrs.example/xAPI/', auth: 'Basic abc', registration: 'f3b8c0de-1a2b-4c3d-8e9f-0123456789ab',
    actor: { objectType: 'Agent', name: 'Ana', mbox: 'mailto:ana@example.org' }, activityId: 'https://courses.example/bucketlab',
  });
  const page = readLaunch(new URLSearchParams(), { xapiEndpoint: 'https://lrs.example/', xapiAuth: 'Basic q' });
  assert.deepEqual([page.endpoint, page.auth], ['https://lrs.example/', 'Basic q']);
  assert.deepEqual(readLaunch(new URLSearchParams('capacity=3')), { auth: undefined, registration: undefined });
});

test('lms: a Tin Can launch whose actor has Tin Can 0.9\'s account gives statements an LRS accepts', () => {
  const actor = { objectType: 'Agent', name: ['Ana'], account: [{ accountServiceHomePage: 'https://cloud.scorm.com', accountName: 'ana|12345' }] };
  const launch = readLaunch(new URLSearchParams({ endpoint: 'https://lrs.example/xAPI/', actor: JSON.stringify(actor) }));
  assert.deepEqual(launch.actor, { objectType: 'Agent', name: 'Ana', account: { homePage: 'https://cloud.scorm.com', name: 'ana|12345' } });
  const maker = statementMaker({ lesson: 'https://x.example/l/', actor: launch.actor, lang: 'en', tables });
  for (const statement of allStatements(maker)) assert.deepEqual(statementProblems(statement), [], JSON.stringify(statement.actor));
  // xAPI 1.0's own names win, and stay as they are.
  const current = { account: { homePage: 'https://lms.example', name: 'ana' } };
  assert.deepEqual(readLaunch(new URLSearchParams({ actor: JSON.stringify(current) })).actor, { objectType: 'Agent', ...current });
});

test('lms: the id an xAPI package\'s pages carry is the lesson\'s when the launch names none; the launch\'s comes first', () => {
  const data = { xapiActivity: 'https://courses.example/rate-limiting' };
  assert.equal(readLaunch(new URLSearchParams(), data).packageActivityId, 'https://courses.example/rate-limiting');
  const launched = readLaunch(new URLSearchParams({ activity_id: 'https://lms.example/a' }), data);
  assert.deepEqual([launched.activityId, launched.packageActivityId], ['https://lms.example/a', 'https://courses.example/rate-limiting']);
  assert.throws(() => readLaunch(new URLSearchParams(), { xapiActivity: 'rate-limiting' }),
    { message: 'launch setting data-xapi-activity="rate-limiting" is not usable: it must be an absolute http(s) URL' });
});

test('lms: a bad launch setting is refused with its name, its value and what is allowed', () => {
  const message = (params) => {
    try {
      readLaunch(new URLSearchParams(params));
    } catch (error) {
      assert.ok(error instanceof LaunchError);
      return error.message;
    }
    return assert.fail(`accepted ${params}`);
  };
  assert.equal(message('endpoint=x'), 'launch setting endpoint="x" is not usable: it must be an absolute http(s) URL');
  assert.equal(message('endpoint=javascript:alert(1)'), 'launch setting endpoint="javascript:alert(1)" is not usable: it must be an absolute http(s) URL');
  assert.equal(message('registration=42'), 'launch setting registration="42" is not usable: it must be a UUID');
  assert.match(message('actor={"name":"Ana"}'), /^launch setting actor="\{"name":"Ana"\}" is not usable: it must be a JSON xAPI Agent with an mbox/);
  assert.match(message('actor=Ana'), /actor="Ana"/);
  // Each by the name it was given under: the Tin Can launch's activity_id, the page's data-*.
  assert.equal(message('activity_id=notaniri'), 'launch setting activity_id="notaniri" is not usable: it must be an absolute http(s) URL');
  assert.match(message('activityId=x'), /^launch setting activityId="x"/);
  assert.throws(() => readLaunch(new URLSearchParams(), { xapiEndpoint: 'lrs', xapiActor: '{}' }), {
    message: 'launch setting data-xapi-endpoint="lrs" is not usable: it must be an absolute http(s) URL; '
      + 'launch setting data-xapi-actor="{}" is not usable: it must be a JSON xAPI Agent with an mbox, mbox_sha1sum, openid or account',
  });
  // Every bad setting at once, in the order of the table in docs/embedding.md.
  const all = message('endpoint=x&actor=Ana&registration=42&activity_id=y');
  assert.deepEqual(all.split('; ').map((part) => part.match(/^launch setting (\w+)=/)[1]), ['endpoint', 'activity_id', 'registration', 'actor']);
});

test('lms: the queue delivers in order through two 500s, warning once', async () => {
  const lrs = await startLrs();
  const warnings = [];
  try {
    const maker = statementMaker({ lesson: 'https://x.example/', actor: anonymousActor('https://x.example'), lang: 'en', tables });
    const queue = new LrsQueue({ endpoint: lrs.endpoint, auth: 'Basic dGVzdDp0ZXN0', retryDelay: 20, warn: (w) => warnings.push(w) });
    lrs.failNext(2, 500);
    const sent = allStatements(maker);
    for (const statement of sent) queue.send(statement);
    assert.ok(queue.pending > 0);
    await until(() => queue.pending === 0);
    assert.deepEqual(lrs.statements.map((s) => s.id), sent.map((s) => s.id));
    assert.equal(queue.dropped, 0);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /the LRS at http:\/\/127\.0\.0\.1:\d+\/xAPI\/statements answered 500/);
  } finally {
    await lrs.close();
  }
});

test('lms: an LRS that does not answer keeps the statements pending until it does', async () => {
  const lrs = await startLrs();
  const warnings = [];
  try {
    const maker = statementMaker({ lesson: 'https://x.example/', actor: anonymousActor('https://x.example'), lang: 'en', tables });
    const queue = new LrsQueue({ endpoint: lrs.endpoint, auth: 'Basic dGVzdDp0ZXN0', timeout: 100, retryDelay: 20, warn: (w) => warnings.push(w) });
    lrs.hangNext(2);
    queue.send(maker.experienced());
    await until(() => lrs.requests >= 2);
    assert.equal(queue.pending, 1);
    await until(() => queue.pending === 0);
    // The one statement got through. On a busy machine an answer can come after the 100 ms, and
    // the retry then delivers it again with the same id, which xAPI allows (an LRS keeps one).
    assert.equal(new Set(lrs.statements.map((s) => s.id)).size, 1);
    assert.deepEqual(warnings.map((w) => w.replace(/\d+\/xAPI/, 'P/xAPI')), [
      'bucketlab: the LRS at http://127.0.0.1:P/xAPI/statements did not answer within 100 ms; the lesson keeps working ' +
      'and the statements wait (bucketlab.xapi.pending, bucketlab.xapi.dropped)',
    ]);
  } finally {
    await lrs.close();
  }
});

test('lms: a batch the LRS stored but answered too late is re-sent alone; its 409 means delivered, and what came since is not lost', async () => {
  const lrs = await startLrs();
  try {
    const maker = statementMaker({ lesson: 'https://x.example/', actor: anonymousActor('https://x.example'), lang: 'en', tables });
    const queue = new LrsQueue({ endpoint: lrs.endpoint, auth: 'Basic dGVzdDp0ZXN0', timeout: 100, retryDelay: 20, warn: () => {} });
    // The LRS stores the first POST at once but answers it only when told: after the client's timeout.
    lrs.holdNext(1);
    const first = maker.experienced();
    queue.send(first);
    await until(() => lrs.held === 1);
    const later = Array.from({ length: 10 }, (_, i) => maker.answered({ ...question, response: i % 2 ? '10' : '20' }));
    for (const statement of later) queue.send(statement);
    await until(() => queue.pending === 0);
    lrs.release();
    assert.equal(queue.dropped, 0);
    assert.deepEqual(lrs.statements.map((s) => s.id), [first, ...later].map((s) => s.id));
    // The retry was the first statement alone (answered 409), then the ten in a batch of their own.
    assert.equal(lrs.requests, 3);
  } finally {
    await lrs.close();
  }
});

test('lms: leaving the page sends every statement not yet acknowledged, the batch in flight apart from the rest', { timeout: 20_000 }, async () => {
  for (const slow of ['holdNext', 'hangNext']) {
    const lrs = await startLrs();
    try {
      const maker = statementMaker({ lesson: 'https://x.example/', actor: anonymousActor('https://x.example'), lang: 'en', tables });
      const queue = new LrsQueue({ endpoint: lrs.endpoint, auth: 'Basic dGVzdDp0ZXN0', warn: () => {} });
      // In flight, and stored (holdNext: its re-sending is answered 409) or not (hangNext).
      lrs[slow](1);
      const sent = allStatements(maker);
      queue.send(sent[0]);
      await until(() => lrs.requests === 1);
      for (const statement of sent.slice(1)) queue.send(statement);
      queue.flushOnExit();
      await until(() => lrs.statements.length === sent.length);
      lrs.release();
      assert.deepEqual(lrs.statements.map((s) => s.id).sort(), sent.map((s) => s.id).sort(), slow);
      assert.equal(lrs.requests, 3, slow);
      queue.block(); // the page is gone: no retry of the request still hanging
    } finally {
      await lrs.close();
    }
  }
});

test('lms: what the LRS refuses, or what never gets through, is counted as dropped', async () => {
  const lrs = await startLrs();
  try {
    const maker = statementMaker({ lesson: 'https://x.example/', actor: anonymousActor('https://x.example'), lang: 'en', tables });
    const wrongCredentials = new LrsQueue({ endpoint: lrs.endpoint, auth: 'Basic bm9wZQ==', warn: () => {} });
    wrongCredentials.send(maker.experienced());
    await until(() => wrongCredentials.dropped === 1);
    assert.equal(wrongCredentials.pending, 0);

    const failing = new LrsQueue({ endpoint: lrs.endpoint, auth: 'Basic dGVzdDp0ZXN0', retryDelay: 5, maxAttempts: 3, warn: () => {} });
    // Three tries for each batch: the first statement's, then the second's (sent while the first
    // was in flight, it is a batch of its own).
    lrs.failNext(6, 503);
    failing.send(maker.experienced());
    failing.send(maker.experienced());
    await until(() => failing.dropped === 2);
    // The queue goes on with what comes next.
    failing.send(maker.experienced());
    await until(() => failing.pending === 0);
    assert.equal(lrs.statements.length, 1);
    assert.equal(failing.dropped, 2);
  } finally {
    await lrs.close();
  }
});

test('lms: a cmi5 launch is refused by name: the lesson is not a cmi5 AU and does not half follow one', () => {
  const cmi5 = new URLSearchParams({ endpoint: 'https://lrs.example/x', fetch: 'https://lms.example/token?k=1',
    actor: '{"account":{"homePage":"https://lms.example","name":"7"}}', activityId: 'https://lms.example/au/1' });
  assert.throws(() => readLaunch(cmi5), (error) => error instanceof LaunchError &&
    /^launch setting fetch= makes this a cmi5 launch, which this lesson does not follow \(it is not a cmi5 AU\)/.test(error.message));
});

/** Resolves once `condition()` holds (checked every 10 ms; the test runner's timeout bounds it). */
async function until(condition) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

test('lms: the SCORM packages are named by version and language, and a wrong one is refused by name', async () => {
  const { manifest, zipName } = await import('../../scripts/scorm.mjs');
  assert.deepEqual([['1.2', 'pt-BR'], ['1.2', 'en'], ['2004', 'pt-BR'], ['2004', 'en']].map(([v, l]) => zipName(v, l)),
    ['bucketlab-scorm12.zip', 'bucketlab-scorm12-en.zip', 'bucketlab-scorm2004.zip', 'bucketlab-scorm2004-en.zip']);
  assert.throws(() => zipName('1.2', 'fr'), { message: 'lang must be "pt-BR" or "en", got "fr"' });
  assert.throws(() => manifest('1.3', [], 'en'), { message: 'version must be "2004" or "1.2", got "1.3"' });
});

test('lms: the same files zip to the same bytes, whenever they were written (packages are reproducible)', async () => {
  const { zipFolder } = await import('../../scripts/scorm.mjs');
  const { mkdtemp, mkdir, writeFile, readFile, rm, utimes } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const work = await mkdtemp(join(tmpdir(), 'bucketlab-zip-'));
  try {
    const zips = [];
    for (const [i, when] of [new Date('2026-03-01'), new Date('2026-11-30')].entries()) {
      const dir = join(work, `stage${i}`);
      await mkdir(join(dir, 'lesson'), { recursive: true });
      await writeFile(join(dir, 'index.html'), '<!doctype html>');
      await writeFile(join(dir, 'lesson', 'main.js'), 'export {};');
      for (const file of ['index.html', 'lesson/main.js', 'lesson']) await utimes(join(dir, file), when, when);
      await zipFolder(dir, join(work, `${i}.zip`));
      zips.push(await readFile(join(work, `${i}.zip`)));
    }
    assert.ok(zips[0].length > 0);
    assert.ok(zips[0].equals(zips[1]), 'the two zips differ');
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});

test('lms: session time in each SCORM version\'s format: 1.2 HHHH:MM:SS.SS, 2004 an ISO 8601 duration', () => {
  const cases = [[0, '0000:00:00.00', 'PT0S'], [3210, '0000:00:03.21', 'PT3.21S'], [754_005, '0000:12:34.01', 'PT12M34.01S'],
    [3_600_000 * 101 + 60_000, '0101:01:00.00', 'PT101H1M0S'], [-5, '0000:00:00.00', 'PT0S']];
  for (const [ms, v12, v2004] of cases) {
    assert.equal(sessionTime('1.2', ms), v12, `ms: ${ms}`);
    assert.equal(sessionTime('2004', ms), v2004, `ms: ${ms}`);
  }
});

test('lms: suspend_data is read back as progress, and anything not ours as none', () => {
  const saved = JSON.stringify({ refused: true, quizDone: true, best: { correct: 6, total: 8 }, answers: { tokens: 'all', edge: '20' }, lang: 'en' });
  assert.deepEqual(readProgress(saved), { refused: true, quizDone: true, best: { correct: 6, total: 8 }, answers: { tokens: 'all', edge: '20' }, lang: 'en' });
  // A language that is not one of the lesson's is none (the page stays as it opened).
  for (const lang of ['fr', 'EN', 42]) assert.equal(readProgress(JSON.stringify({ lang })).lang, null, String(lang));
  // An earlier release's suspend_data, with no answers: none to show again.
  assert.deepEqual(readProgress('{"refused":true,"quizDone":false,"best":null}').answers, {});
  const none = { refused: false, quizDone: false, best: null, answers: {}, lang: null };
  for (const text of ['', 'null', '42', 'page=3', '{"refused":"yes","best":{"correct":9,"total":8}}']) assert.deepEqual(readProgress(text), none, text);
  // Answers that are not ours are left out: a value that is no string, a text too long, a list.
  const odd = (answers) => readProgress(JSON.stringify({ answers })).answers;
  assert.deepEqual(odd({ tokens: 3, edge: '20' }), { edge: '20' });
  assert.deepEqual(odd({ tokens: 'x'.repeat(41) }), {});
  assert.deepEqual(odd(['all']), {});
  assert.deepEqual(odd(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`q${i}`, 'a']))), {}, 'more answers than a set has');
});

/** A SCORM session of `version` on scorm-again's run-time, loaded with `cmi`; resolves to { api, session, warnings }. */
function scormAgainSession(version, cmi = {}) {
  const api = version === '1.2' ? new scormAgain.Scorm12API({ logLevel: 5 }) : new scormAgain.Scorm2004API({ logLevel: 5 });
  api.loadFromJSON(cmi);
  const warnings = [];
  const session = new ScormSession({ version, api }, { warn: (text) => warnings.push(text), storage: null });
  return { api, session, warnings };
}

const asked = [
  { id: 'gcra', prompt: 'Which bucket allows 5 at once, one every 0.25 s?', answer: '5/4', response: '5/0.25' },
  { id: 'memory', prompt: 'Which one keeps a timestamp per request?', answer: 'slidingLog', response: 'slidingLog' },
];

for (const version of ['1.2', '2004']) {
  test(`lms: SCORM ${version}: each quick-check answer is an interaction scorm-again takes, after those the LMS holds`, () => {
    const { api, session, warnings } = scormAgainSession(version);
    const at = new Date(2026, 11, 7, 9, 5, 3, 120);
    for (const question of asked) session.reportAnswer(question, 'pt-BR', at);
    assert.deepEqual(warnings, [], 'every value accepted');
    const held = () => api.renderCMIToJSONObject().cmi.interactions;
    const [first, second] = Object.values(held());
    assert.equal(Object.keys(held()).length, 2);
    const response = version === '1.2' ? 'student_response' : 'learner_response';
    assert.deepEqual(
      { ...first, pattern: first.correct_responses[0].pattern, objectives: undefined, correct_responses: undefined, weighting: undefined, latency: undefined },
      version === '1.2'
        // A fill-in: a 1.2 choice takes single characters only; the learner's clock time.
        ? { id: 'quick-check-gcra', type: 'fill-in', pattern: '5/4', student_response: '5/0.25', result: 'wrong', time: '09:05:03',
          objectives: undefined, correct_responses: undefined, weighting: undefined, latency: undefined }
        // A choice's responses are short identifiers, as Moodle checks them: B/r is B_r.
        : { id: 'urn:bucketlab:quick-check:gcra', type: 'choice', description: `{lang=pt-BR}${asked[0].prompt}`, pattern: '5_4',
          learner_response: '5_0.25', result: 'incorrect', timestamp: at.toISOString().replace(/\dZ$/, 'Z'),
          objectives: undefined, correct_responses: undefined, weighting: undefined, latency: undefined });
    assert.deepEqual([second[response], second.result], ['slidingLog', 'correct']);
    if (version === '2004') {
      // Moodle's CMIShortIdentifier (mod/scorm/datamodels/scorm_13.js), stricter than scorm-again's.
      for (const value of [first.correct_responses[0].pattern, first.learner_response]) assert.match(value, /^[\w.]{1,250}$/);
    }
    // A later sitting (or the other language's page) goes on after the interactions the LMS hands back.
    const later = scormAgainSession(version, { interactions: held() });
    later.session.reportAnswer({ id: 'tokens', prompt: 'How many pass?', answer: 'all', response: 'all' }, 'en', at);
    assert.deepEqual(later.warnings, []);
    const all = Object.values(later.api.renderCMIToJSONObject().cmi.interactions);
    assert.deepEqual(all.map((i) => i[response]), [version === '1.2' ? '5/0.25' : '5_0.25', 'slidingLog', 'all'], 'the third answer is interaction 2, not 0 again');
  });
}

test('lms: SCORM 2004: an interaction\'s description holds at most 250 characters, its language tag counted', () => {
  const pairs = Object.fromEntries(interaction('2004', 3, { id: 'tokens', prompt: 'x'.repeat(300), answer: 'all', response: 'some' }, new Date(), 'pt-BR'));
  assert.equal(pairs['cmi.interactions.3.description'].length, 250);
  assert.ok(pairs['cmi.interactions.3.description'].startsWith('{lang=pt-BR}xxx'));
});

test('lms: only a better share of right answers beats the best score reported', () => {
  assert.equal(beats({ correct: 0, total: 8 }, null), true, 'the first score is reported, even 0');
  assert.equal(beats({ correct: 7, total: 8 }, { correct: 6, total: 8 }), true);
  assert.equal(beats({ correct: 6, total: 8 }, { correct: 6, total: 8 }), false);
  assert.equal(beats({ correct: 0, total: 8 }, { correct: 8, total: 8 }), false);
  assert.equal(beats({ correct: 0, total: 0 }, null), false);
});

test('lms: the xAPI package\'s activity id and policy: an LRS given at build time is the only one; else any https LRS', async () => {
  const { checkActivity, tincanPolicy, tincanXml } = await import('../../scripts/tincan.mjs');
  assert.equal(checkActivity('https://courses.example/rate-limiting'), 'https://courses.example/rate-limiting');
  for (const bad of ['courses/rate-limiting', 'ftp://courses.example/x', 'https://user:pw@courses.example/x']) {
    assert.throws(() => checkActivity(bad), { message: `XAPI_ACTIVITY ${JSON.stringify(bad)} is not an activity id: it must be an absolute http(s) address without credentials, the same in every release, like https://courses.example/rate-limiting` });
  }
  assert.throws(() => tincanXml('nope', 'en'), /XAPI_ACTIVITY "nope"/);
  assert.match(tincanXml('https://x.example/a?b=1&c=2', 'en'), /<activity id="https:\/\/x\.example\/a\?b=1&amp;c=2"/);
  assert.equal(tincanPolicy("default-src 'self'; style-src 'self'"), "default-src 'self'; style-src 'self'; connect-src 'self' https:");
  const named = "default-src 'self'; connect-src 'self' https://lrs.example";
  assert.equal(tincanPolicy(named), named);
});

test('lms: the xAPI package\'s lesson pages carry its activity id on <body>, for a launch without activity_id', async () => {
  const { withActivity } = await import('../../scripts/tincan.mjs');
  const page = '<!doctype html><html lang="en"><head><title>x</title></head><body>\n<main></main></body></html>';
  const id = 'https://courses.example/a?b=1&c=2';
  for (const file of ['index.html', 'en.html']) {
    assert.equal(withActivity(file, page, id), page.replace('<body>', '<body data-xapi-activity="https://courses.example/a?b=1&amp;c=2">'));
  }
  assert.equal(withActivity('embed.html', page, id), page, 'only the lesson\'s pages');
  assert.throws(() => withActivity('en.html', '<html></html>', id), /en\.html has no <body>/);
});

test('lms: a course package holds the lesson, not what only the open web reads (the shared link\'s picture, the sitemap) nor the host\'s files', async () => {
  const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { lessonFiles } = await import('../../scripts/scorm.mjs');
  const site = await mkdtemp(join(tmpdir(), 'bucketlab-site-'));
  try {
    await mkdir(join(site, 'lesson'));
    for (const file of ['index.html', 'icon.0123456789.svg', 'social.0123456789.png', 'sitemap.xml', '_headers', 'index.html.gz', 'lesson/main.0123456789.js']) {
      await writeFile(join(site, file), '');
    }
    assert.deepEqual(await lessonFiles(site), ['icon.0123456789.svg', 'index.html', 'lesson/main.0123456789.js']);
  } finally {
    await rm(site, { recursive: true, force: true });
  }
});
