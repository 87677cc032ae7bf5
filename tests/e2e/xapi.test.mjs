// xAPI from the lesson page in Chromium: the bucketlab:xapi events, and their delivery to an LRS
// named by the launch. The LRS is the stand-in in tests/lms/ (a real HTTP server on another
// origin that validates every statement with @learninglocker/xapi-validation and stores it). The
// page is served under the strict CSP plus the one line a host adds for its LRS (connect-src).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, serve } from './harness.mjs';
import { serveStatic, STRICT_CSP } from './static-server.mjs';
import { startLrs, statementProblems } from '../lms/lrs-stand-in.mjs';
import { answerQuickCheck, collectStatements, doQuickCheck, newQuestions, sendUntilRefused } from '../lms/learner.mjs';

const AUTH = 'Basic dGVzdDp0ZXN0';
const ACTOR = { name: 'Ana', mbox: 'mailto:ana@example.org' };
const REGISTRATION = '6f1c2b9e-4d3a-4c8b-9e7f-1a2b3c4d5e6f';
let lrs;
/** An LRS address where nothing listens any more (allowed by the CSP, so only the network fails). */
let gone;
let site;
let browser;

before(async () => {
  lrs = await startLrs({ auth: AUTH });
  const closed = await startLrs();
  await closed.close();
  gone = closed.endpoint;
  const csp = `${STRICT_CSP}; connect-src 'self' ${new URL(lrs.endpoint).origin} ${new URL(gone).origin}`;
  site = await serveStatic(new URL('../../www/', import.meta.url).pathname, { headers: { 'content-security-policy': csp } });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.close();
  await lrs?.close();
});

/** The lesson launched with `params`, the bucketlab:xapi events collected in window.statements. */
async function openLaunched(params, path = 'en.html') {
  const page = await openPage(browser);
  await collectStatements(page);
  await page.goto(`${site.url}${path}?${new URLSearchParams(params)}`);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  return page;
}

const launchParams = (endpoint = lrs.endpoint) => ({ endpoint, auth: AUTH, actor: JSON.stringify(ACTOR), registration: REGISTRATION });

/** The page's problems, less Chromium's own line for each failed request (not the page's). */
const pageProblems = (page) => page.problems.filter((p) => !/Failed to load resource|net::ERR_/.test(p));
const verbs = (statements) => statements.map((s) => s.verb.id.split('/').pop());

test('lms: a learner session reaches the LRS: every statement valid, in order, none pending', async () => {
  const stored = lrs.statements.length;
  const page = await openLaunched(launchParams());
  await sendUntilRefused(page.mainFrame());
  const score = await doQuickCheck(page.mainFrame());
  const events = await page.evaluate(() => window.statements);
  assert.deepEqual(verbs(events), ['experienced', 'interacted', ...Array(score.total).fill('answered'), 'completed', 'completed']);
  for (const statement of events) assert.deepEqual(statementProblems(statement), [], JSON.stringify(statement));
  await page.waitForFunction(() => window.bucketlab.xapi.pending === 0);
  const delivered = lrs.statements.slice(stored);
  assert.deepEqual(delivered.map((s) => s.id), events.map((s) => s.id));
  assert.deepEqual(lrs.refused, []);
  const [, interacted, firstAnswer] = delivered;
  assert.deepEqual(interacted.actor, { objectType: 'Agent', ...ACTOR });
  assert.equal(interacted.context.registration, REGISTRATION);
  assert.equal(interacted.result.response, '429');
  assert.equal(typeof firstAnswer.result.success, 'boolean');
  assert.ok(firstAnswer.object.definition.choices.some((c) => c.id === firstAnswer.result.response));
  const [quiz, lesson] = delivered.slice(-2);
  assert.deepEqual(quiz.result.score, { scaled: score.correct / score.total, raw: score.correct, min: 0, max: score.total });
  // Then the lesson itself (with no activity_id in the launch, the page's folder), as the quick
  // check passed or not.
  assert.equal(lesson.object.id, `${site.url}`);
  assert.deepEqual(lesson.result, { completion: true, success: score.correct / score.total >= 0.7 });
  assert.equal(await page.evaluate(() => window.bucketlab.xapi.dropped), 0);
  assert.deepEqual(pageProblems(page), []);
  await page.context().close();
});

test('lms: a 429 on the English page and the quick check on the Portuguese one complete the launched lesson once', async () => {
  const stored = lrs.statements.length;
  const activity = 'https://courses.example/rate-limiting';
  const page = await openLaunched({ ...launchParams(), activity_id: activity });
  await sendUntilRefused(page.mainFrame());
  // The language link opens the other page in this tab, with the same launch.
  await page.click('.lang-switch a[data-lang="pt-BR"]');
  await page.waitForURL(/\/index\.html\?/);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await doQuickCheck(page.mainFrame());
  await page.waitForFunction(() => window.bucketlab.xapi.pending === 0);
  const lesson = lrs.statements.slice(stored).filter((s) => s.object.id === activity);
  assert.deepEqual(lesson.map((s) => s.verb.id.split('/').pop()), ['experienced', 'experienced', 'completed']);
  assert.equal(lesson.at(-1).context.language, 'pt-BR');
  // A reload afterwards completes nothing again.
  await page.reload();
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await page.waitForFunction(() => window.bucketlab.xapi.pending === 0);
  assert.equal(lrs.statements.slice(stored).filter((s) => s.object.id === activity && s.verb.id.endsWith('/completed')).length, 1);
  assert.deepEqual(lrs.refused, []);
  await page.context().close();
});

test('lms: an LRS that answers 500 costs nothing: one warning, the bucket works, the statements arrive later', async () => {
  const stored = lrs.statements.length;
  lrs.failNext(2, 500);
  const page = await openLaunched(launchParams(), '');
  await sendUntilRefused(page.mainFrame());
  // Empty: the core's time and refill are doubles, so what is left can be a last bit (2.78e-16
  // once, in a helper's run), never a token.
  const left = await page.evaluate(() => window.bucketlab.diagram.tokens);
  assert.ok(left >= 0 && left < 1e-9, `the bucket is empty after the refusal, not ${left}`);
  await page.waitForFunction(() => window.statements.length === 2 && window.bucketlab.xapi.pending === 0);
  const ids = await page.evaluate(() => window.statements.map((s) => s.id));
  assert.deepEqual(lrs.statements.slice(stored).map((s) => s.id), ids);
  assert.equal(await page.evaluate(() => window.bucketlab.xapi.dropped), 0);
  const problems = pageProblems(page);
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0], /^warning: bucketlab: the LRS at http:\/\/127\.0\.0\.1:\d+\/xAPI\/statements answered 500 Internal Server Error; the lesson keeps working/);
  await page.context().close();
});

/** Resolves once `condition()` holds in this process (checked every 10 ms; the runner's timeout bounds it). */
async function until(condition) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

test('lms: a learner who closes the tab behind a slow LRS loses nothing: what is not acknowledged leaves with the page', { timeout: 60_000 }, async () => {
  const stored = lrs.statements.length;
  // The LRS stores `experienced` at once but answers it only when the test says: still in flight
  // when the tab closes, with the quick check's statements queued behind it.
  lrs.holdNext(1);
  const page = await openLaunched(launchParams());
  await until(() => lrs.held === 1);
  const score = await doQuickCheck(page.mainFrame());
  const events = await page.evaluate(() => window.statements);
  assert.equal(await page.evaluate(() => window.bucketlab.xapi.pending), score.total + 2);
  await page.close();
  await until(() => lrs.statements.length - stored === events.length);
  lrs.release();
  assert.deepEqual(lrs.statements.slice(stored).map((s) => s.id), events.map((s) => s.id));
  assert.equal(verbs(lrs.statements).at(-1), 'completed');
  assert.deepEqual(lrs.refused, []);
  await page.context().close();
});

test('lms: an LRS that cannot be reached keeps the statements pending, with one warning', async () => {
  const page = await openLaunched(launchParams(gone));
  await sendUntilRefused(page.mainFrame());
  await page.waitForFunction(() => window.bucketlab.xapi.pending === 2);
  const problems = pageProblems(page);
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0], /the LRS at http:\/\/127\.0\.0\.1:\d+\/xAPI\/statements could not be reached/);
  await page.context().close();
});

test('lms: an LRS the page\'s Content-Security-Policy refuses is named in a warning with the fix; nothing reaches it', async () => {
  // A live LRS whose origin is not in the policy's connect-src (the site's policy names two others).
  const outside = await startLrs({ auth: AUTH });
  try {
    const page = await openLaunched(launchParams(outside.endpoint));
    await sendUntilRefused(page.mainFrame());
    await page.waitForFunction(() => window.bucketlab.xapi.pending === 2);
    const origin = new URL(outside.endpoint).origin;
    const warnings = pageProblems(page).filter((p) => p.startsWith('warning: '));
    // That warning alone: not also "could not be reached", which would send the author looking at the network.
    assert.deepEqual(warnings, [`warning: bucketlab: the page's Content-Security-Policy (connect-src) refuses the LRS at ${origin}: `
      + `add ${origin} to connect-src (for dist/_headers: make dist LRS=${origin})`]);
    assert.equal(outside.requests, 0);
    await page.context().close();
  } finally {
    await outside.close();
  }
});

test('lms: a corrupt launch is named in one warning; the events still fire and nothing is sent', async () => {
  const requests = lrs.requests;
  const page = await openLaunched({ endpoint: 'lrs.example/xAPI', auth: AUTH });
  await sendUntilRefused(page.mainFrame());
  await page.waitForFunction(() => window.statements.length === 2);
  assert.deepEqual(pageProblems(page), [
    'warning: bucketlab: launch setting endpoint="lrs.example/xAPI" is not usable: it must be an absolute http(s) URL; statements stay in the page',
  ]);
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.xapi.pending, window.bucketlab.xapi.dropped]), [0, 0]);
  assert.equal(lrs.requests, requests);
  await page.context().close();
});

test('lms: a 429 met while the page\'s script (and its LMS module) is still loading counts: its statement follows once it runs', async () => {
  // The learner clicks the first screen's button six times (B = 5) at first paint, while the
  // page's script, which holds the module that reports to course platforms (lms/lesson.js, in
  // lesson/main.bundle.js), is still on its way: those clicks are decided when it arrives, and the
  // refusal among them must reach the LMS module too.
  const held = '/lesson/main.bundle.js';
  const server = await serve({ hold: [held] });
  try {
    const page = await openPage(browser);
    await collectStatements(page);
    // Not waiting for DOMContentLoaded: it comes after the page's modules have run. A slow refill
    // (r = 0.01/s) keeps the sixth click refused however slowly a busy machine makes the clicks.
    await page.goto(`${server.url}en.html?refill-rate=0.01`, { waitUntil: 'commit' });
    const send = page.locator('#hero-widget .bl-send');
    await send.waitFor();
    for (let i = 0; i < 6; i += 1) await send.click();
    // The wasm has come in (it attaches only once the page's script runs): let a paint go by.
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('.wasm') && e.responseEnd > 0));
    await page.evaluate(() => new Promise(requestAnimationFrame));
    server.release(held);
    await page.waitForSelector('#hero-widget .bl-widget[data-live]');
    await page.waitForFunction(() => window.statements.length >= 2);
    assert.deepEqual(verbs(await page.evaluate(() => window.statements)), ['experienced', 'interacted']);
    assert.equal(await page.evaluate(() => window.bucketlab.hero.tokens < 1), true, 'all six clicks were decided');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await server.close();
  }
});

test('lms: a cmi5 launch is refused in one warning (the lesson is not a cmi5 AU): nothing reaches the LRS', async () => {
  const requests = lrs.requests;
  const page = await openLaunched({
    endpoint: lrs.endpoint, fetch: `${lrs.endpoint}fetch?code=abc`, registration: REGISTRATION, activityId: 'https://lms.example/au/bucketlab',
    actor: JSON.stringify({ objectType: 'Agent', account: { homePage: 'https://lms.example', name: 'ana' } }),
  });
  await sendUntilRefused(page.mainFrame());
  await page.waitForFunction(() => window.statements.length === 2);
  assert.deepEqual(pageProblems(page), [
    'warning: bucketlab: launch setting fetch= makes this a cmi5 launch, which this lesson does not follow (it is not a cmi5 AU): ' +
      'import it into the LMS as an xAPI (Tin Can) activity, launched with endpoint and auth; statements stay in the page',
  ]);
  assert.equal(await page.evaluate(() => window.bucketlab.xapi.pending), 0);
  assert.equal(lrs.requests, requests);
  await page.context().close();
});

test('lms: the quick check is completed once: "New questions" sets are practice and send no statement', async () => {
  const stored = lrs.statements.length;
  const page = await openLaunched(launchParams());
  const first = await answerQuickCheck(page.mainFrame(), { right: true });
  await newQuestions(page.mainFrame());
  await answerQuickCheck(page.mainFrame(), { right: false });
  await page.waitForFunction(() => window.bucketlab.xapi.pending === 0);
  const delivered = verbs(lrs.statements.slice(stored));
  assert.deepEqual(delivered, ['experienced', ...Array(first.total).fill('answered'), 'completed']);
  assert.equal(lrs.statements.at(-1).result.score.scaled, 1);
  assert.deepEqual(verbs(await page.evaluate(() => window.statements)), delivered);
  assert.deepEqual(pageProblems(page), []);
  await page.context().close();
});

test('lms: links made to share (the permalink, "watch this") carry the lesson\'s settings, never the launch\'s LRS credentials or learner', async () => {
  const page = await openLaunched({ ...launchParams(), capacity: '3', lang: 'en' });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(site.url).origin });
  await page.evaluate(() => window.bucketlab.diagram.send());
  await page.focus('.permalink-link');
  const permalink = new URL(await page.getAttribute('.permalink-link', 'href'));
  await page.click('.permalink .scenario-copy');
  await page.waitForFunction(() => navigator.clipboard.readText().then((text) => text.includes('#')));
  const scenario = new URL(await page.evaluate(() => navigator.clipboard.readText()));
  for (const url of [permalink, scenario]) {
    assert.deepEqual([...url.searchParams], [['capacity', '3'], ['lang', 'en']], url.href);
    assert.doesNotMatch(url.href, /auth|endpoint|actor|registration|ana%40|ana@/, url.href);
  }
  assert.match(scenario.hash, /s=/);
  // Followed here, the permalink leaves the launch in the reader's own address (a reload needs it).
  await page.click('.permalink-link');
  const address = new URL(page.url());
  assert.equal(address.searchParams.get('auth'), AUTH);
  assert.match(address.hash, /b=3/);
  assert.deepEqual(pageProblems(page), []);
  await page.context().close();
});
