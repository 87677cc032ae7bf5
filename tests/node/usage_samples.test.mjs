// The Python and JavaScript usage samples (lesson/code/usage/routes.py and middleware.js), as the
// English page shows them, run with the lesson's buckets: the key is the user a valid token proves
// (a forged token falls back to the IP, so rotating forged tokens gets no fresh bucket), buckets
// idle long enough to be full again are forgotten, and under threads the Python bucket and routes
// admit no more than B. Flask and Express are only the transport: small stand-ins let the samples
// load without them (the Go sample is checked in usage_go.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { embeddedSource, readLocale } from '../../scripts/pages.mjs';

const hasPython = spawnSync('python3', ['--version']).status === 0;

/** A temporary folder holding `files` ({name: text}); removed after `use(dir)`. */
async function withFiles(files, use) {
  const dir = mkdtempSync(join(tmpdir(), 'bucketlab-usage-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return await use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const sample = (path) => embeddedSource(path, readLocale('en'));

// Flask as far as routes.py uses it: route decorators that keep the view, a per-thread request,
// and jsonify. The app's own parts (verify_token, run_search, check_password) are the test's.
const FLASK = `
import threading

class Flask:
    def __init__(self, name): pass
    def get(self, path): return lambda view: view
    def post(self, path): return lambda view: view

class _Request(threading.local):
    headers, remote_addr, args, form = {}, None, {}, {}

request = _Request()

class Response:
    def __init__(self, body): self.body, self.status_code, self.headers = body, 200, {}

def jsonify(**body): return Response(body)
`;

const PYTHON_CHECK = `
import sys, threading, time, types
import routes
from token_bucket import TokenBucket

routes.verify_token = lambda header: "u1" if header == "Bearer real" else None
routes.run_search = lambda q: []
clock = [1000.0]
routes.time = types.SimpleNamespace(monotonic=lambda: clock[0])
routes.last_sweep = clock[0]

def search(ip, token=None):
    routes.request.remote_addr = ip
    routes.request.headers = {"Authorization": token} if token else {}
    routes.request.args = {"q": "x"}
    return routes.search().status_code

def statuses(codes):
    return {code: codes.count(code) for code in sorted(set(codes))}

# One IP rotating forged tokens shares that IP's bucket (B = 30); a real token has its own.
forged = statuses([search("203.0.113.7", f"Bearer forged-{i}") for i in range(200)])
real = statuses([search("203.0.113.7", "Bearer real") for _ in range(40)])
held = len(routes.buckets)

# 100 other IPs, then 61 s later: their buckets are full again and forgotten; one drained 1.5 s
# before the sweep (15 tokens back) keeps its state.
for i in range(100):
    search(f"198.51.100.{i}")
clock[0] = 1059.5
drained = statuses([search("192.0.2.1") for _ in range(30)])
clock[0] = 1061.0
after = statuses([search("192.0.2.1") for _ in range(16)])
swept = len(routes.buckets)

# Check and debit are one step: a tokens attribute that yields the thread on every read makes
# any interleaving happen, and still only B = 1 request of 8 threads passes, every time.
class Slow(TokenBucket):
    @property
    def tokens(self):
        value = self._tokens
        time.sleep(0.0005)
        return value

    @tokens.setter
    def tokens(self, value):
        self._tokens = value

def race(acquire, threads=8):
    admitted, barrier = [], threading.Barrier(threads)
    def one():
        barrier.wait()
        if acquire():
            admitted.append(1)
    workers = [threading.Thread(target=one) for _ in range(threads)]
    [w.start() for w in workers]
    [w.join() for w in workers]
    return len(admitted)

over_b = []
for trial in range(10):
    bucket = Slow(1, 0)
    over_b.append(race(lambda: bucket.try_acquire(1, 1.0)[0]))
# The Flask sample under threads: 40 requests of one user at one instant, B = 30.
routes.TokenBucket = Slow
routes.buckets.clear()
routes_admitted = race(lambda: search("203.0.113.9", "Bearer real") == 200, threads=40)

import json
print(json.dumps({"forged": forged, "real": real, "held": held, "drained": drained, "after": after,
                  "swept": swept, "over_b": over_b, "routes_admitted": routes_admitted}))
`;

test('Python: routes.py keys on the verified user or the IP, forgets full buckets and admits at most B under threads',
  { skip: !hasPython && 'python3 is not installed' }, async () => {
    const out = await withFiles({
      'flask.py': FLASK,
      'routes.py': sample('lesson/code/usage/routes.py'),
      'token_bucket.py': sample('lesson/code/algorithm/token_bucket.py'),
      'check.py': PYTHON_CHECK,
    }, (dir) => JSON.parse(execFileSync('python3', ['check.py'], { cwd: dir, encoding: 'utf8' })));
    assert.deepEqual(out.forged, { 200: 30, 429: 170 }, 'forged tokens from one IP: that IP\'s 30');
    assert.deepEqual(out.real, { 200: 30, 429: 10 }, 'a valid token: its own 30');
    assert.equal(out.held, 2, 'one bucket for the IP, one for the user, none per forged token');
    assert.deepEqual(out.drained, { 200: 30 });
    assert.deepEqual(out.after, { 200: 15, 429: 1 }, 'the drained bucket kept its state (15 tokens back)');
    assert.equal(out.swept, 1, 'only the bucket that was not full again is kept');
    assert.deepEqual(out.over_b, Array(10).fill(1), 'token_bucket.py: one admission of B = 1 per trial');
    assert.equal(out.routes_admitted, 30, 'routes.py: 30 of 40 simultaneous requests');
  });

// Express as far as middleware.js uses it: an app whose routes and listen do nothing.
const EXPRESS = 'export default () => ({ get() {}, post() {}, listen() {} });\n';

test('JavaScript: middleware.js keys on the verified user or the IP, and forgets full buckets every minute', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  let now = 1000;
  const realPerformance = globalThis.performance;
  Object.defineProperty(globalThis, 'performance', { value: { now: () => now * 1000 }, configurable: true, writable: true });
  Object.assign(globalThis, {
    verifyToken: (header) => (header === 'Bearer real' ? 'u1' : null),
    runSearch: () => [],
    checkPassword: () => {},
  });
  try {
    await withFiles({
      'node_modules/express/package.json': '{ "name": "express", "type": "module", "main": "index.js" }\n',
      'node_modules/express/index.js': EXPRESS,
      'package.json': '{ "type": "module" }\n',
      // The map is the sample's own; exported here only so the test can count it.
      'middleware.js': `${sample('lesson/code/usage/middleware.js')}\nexport { buckets };\n`,
      'token_bucket.js': sample('lesson/code/algorithm/token_bucket.js'),
    }, async (dir) => {
      const { rateLimited, buckets } = await import(pathToFileURL(join(dir, 'middleware.js')));
      const search = rateLimited('search');
      const send = (ip, token) => {
        let status = 200;
        const headers = {};
        const req = { ip, get: (name) => (name === 'Authorization' ? token : undefined) };
        const res = { set: (name, value) => { headers[name] = value; }, status(code) { status = code; return this; }, json() {} };
        search(req, res, () => {});
        return status;
      };
      const statuses = (codes) => codes.reduce((count, code) => ({ ...count, [code]: (count[code] ?? 0) + 1 }), {});

      const forged = Array.from({ length: 200 }, (_, i) => send('203.0.113.7', `Bearer forged-${i}`));
      assert.deepEqual(statuses(forged), { 200: 30, 429: 170 }, 'forged tokens from one IP: that IP\'s 30');
      assert.deepEqual(statuses(Array.from({ length: 40 }, () => send('203.0.113.7', 'Bearer real'))), { 200: 30, 429: 10 });
      assert.equal(buckets.size, 2, 'one bucket for the IP, one for the user, none per forged token');

      for (let i = 0; i < 100; i++) send(`198.51.100.${i}`);
      now = 1058.5;
      assert.deepEqual(statuses(Array.from({ length: 30 }, () => send('192.0.2.1'))), { 200: 30 });
      now = 1060;
      t.mock.timers.tick(60_000);
      assert.equal(buckets.size, 1, 'after a minute only the bucket that is not full again is kept');
      assert.deepEqual(statuses(Array.from({ length: 16 }, () => send('192.0.2.1'))), { 200: 15, 429: 1 }, 'with its state');
    });
  } finally {
    Object.defineProperty(globalThis, 'performance', { value: realPerformance, configurable: true, writable: true });
    for (const name of ['verifyToken', 'runSearch', 'checkPassword']) delete globalThis[name];
  }
});

// The algorithm snippets keep the Rust core's rounding slack (src/limiter/bucket.rs): a bucket of
// 0.3 passes three requests of 0.1 (0.3 − 0.1 − 0.1 is 0.09999999999999998), and a request sent
// exactly the reported wait after a refusal passes, over buckets, rates and start times whose sums
// round. Each language runs the same trials and answers { third, retries, refused }.
const SLACK_TRIALS = { capacities: [1, 2.5, 5, 10], rates: [0.1, 0.3, 0.7, 1, 3, 7.1, 1 / 3], starts: [0, 0.1, 1.7, 12.3, 1000.1] };

const PYTHON_SLACK = `
import json
from token_bucket import TokenBucket

small = TokenBucket(0.3, 1)
third = [small.try_acquire(0.1, 0)[0] for _ in range(3)][2]
retries = refused = 0
trials = json.loads(${JSON.stringify(JSON.stringify(SLACK_TRIALS))})
for capacity in trials["capacities"]:
    for rate in trials["rates"]:
        for start in trials["starts"]:
            bucket, now = TokenBucket(capacity, rate), start
            while True:
                allowed, wait = bucket.try_acquire(1, now)
                if not allowed:
                    break
                now += 0.01
            retries += 1
            refused += not bucket.try_acquire(1, now + wait)[0]
print(json.dumps({"third": third, "retries": retries, "refused": refused}))
`;

/** The same trials with the JavaScript snippet's class. */
function javascriptSlack(TokenBucket) {
  const small = new TokenBucket(0.3, 1);
  const third = [0, 1, 2].map(() => small.tryAcquire(0.1, 0).allowed)[2];
  let retries = 0;
  let refused = 0;
  for (const capacity of SLACK_TRIALS.capacities) {
    for (const rate of SLACK_TRIALS.rates) {
      for (const start of SLACK_TRIALS.starts) {
        const bucket = new TokenBucket(capacity, rate);
        let now = start;
        let decision;
        while ((decision = bucket.tryAcquire(1, now)).allowed) now += 0.01;
        retries += 1;
        if (!bucket.tryAcquire(1, now + decision.retryAfter).allowed) refused += 1;
      }
    }
  }
  return { third, retries, refused };
}

const SLACK_EXPECTED = { third: true, retries: 140, refused: 0 };

test('the JavaScript and Python algorithm snippets keep the core\'s rounding slack', async () => {
  await withFiles({
    'package.json': '{ "type": "module" }\n',
    'token_bucket.js': sample('lesson/code/algorithm/token_bucket.js'),
    'token_bucket.py': sample('lesson/code/algorithm/token_bucket.py'),
    'slack.py': PYTHON_SLACK,
  }, async (dir) => {
    const { TokenBucket } = await import(pathToFileURL(join(dir, 'token_bucket.js')));
    assert.deepEqual(javascriptSlack(TokenBucket), SLACK_EXPECTED, 'token_bucket.js');
    if (hasPython) {
      const out = JSON.parse(execFileSync('python3', ['slack.py'], { cwd: dir, encoding: 'utf8' }));
      assert.deepEqual(out, SLACK_EXPECTED, 'token_bucket.py');
    }
  });
});

// After the clock went backwards the wait also covers the lag back to `last` (SEMANTICS.md), so a
// retry at now + wait passes, as in the core; a cost below 0 or not finite and a time that is not
// finite are refused with the field, the value and the rule, and the bucket is left as it was.
const EDGE_CALLS = [[-3, 0], [NaN, 0], [1, NaN], [1, Infinity]];

const PYTHON_EDGES = `
import json, math
from token_bucket import TokenBucket
b = TokenBucket(10, 5)
b.try_acquire(10, 2000)
allowed, wait = b.try_acquire(1, 1999)
retry = b.try_acquire(1, 1999 + wait)[0]
untouched, errors = TokenBucket(5, 1), []
for cost, now in [(-3, 0), (math.nan, 0), (1, math.nan), (1, math.inf)]:
    try:
        untouched.try_acquire(cost, now)
        errors.append(None)
    except ValueError as e:
        errors.append(str(e))
print(json.dumps({"allowed": allowed, "wait": wait, "retry": retry, "errors": errors, "tokens": untouched.tokens}))
`;

function javascriptEdges(TokenBucket) {
  const b = new TokenBucket(10, 5);
  b.tryAcquire(10, 2000);
  const { allowed, retryAfter: wait } = b.tryAcquire(1, 1999);
  const retry = b.tryAcquire(1, 1999 + wait).allowed;
  const untouched = new TokenBucket(5, 1);
  const errors = EDGE_CALLS.map(([cost, now]) => {
    try {
      untouched.tryAcquire(cost, now);
      return null;
    } catch (error) {
      return error instanceof RangeError ? error.message : String(error);
    }
  });
  return { allowed, wait, retry, errors, tokens: untouched.tokens };
}

test('the JavaScript and Python algorithm snippets wait out a clock that went backwards and refuse a bad cost or time', async () => {
  await withFiles({
    'package.json': '{ "type": "module" }\n',
    'token_bucket.js': sample('lesson/code/algorithm/token_bucket.js'),
    'token_bucket.py': sample('lesson/code/algorithm/token_bucket.py'),
    'edges.py': PYTHON_EDGES,
  }, async (dir) => {
    const check = (got, words, name) => {
      assert.equal(got.allowed, false, name);
      assert.ok(Math.abs(got.wait - 1.2) < 1e-12, `${name}: the wait is 1 s of lag + 0.2 s, not ${got.wait}`);
      assert.equal(got.retry, true, `${name}: a retry at now + wait passes`);
      assert.deepEqual(got.errors, [
        `cost must be a finite number of at least 0, got -3`,
        `cost must be a finite number of at least 0, got ${words.nan}`,
        `now must be a finite number, got ${words.nan}`,
        `now must be a finite number, got ${words.inf}`,
      ], name);
      assert.equal(got.tokens, 5, `${name}: a refused call leaves the bucket as it was`);
    };
    const { TokenBucket } = await import(pathToFileURL(join(dir, 'token_bucket.js')));
    check(javascriptEdges(TokenBucket), { nan: 'NaN', inf: 'Infinity' }, 'token_bucket.js');
    if (hasPython) {
      check(JSON.parse(execFileSync('python3', ['edges.py'], { cwd: dir, encoding: 'utf8' })), { nan: 'nan', inf: 'inf' }, 'token_bucket.py');
    }
  });
});
