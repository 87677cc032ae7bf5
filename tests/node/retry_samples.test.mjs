// The lesson's retry loops read both forms of Retry-After alike: whole seconds, or an HTTP date
// (the time until then, at least 0), and 1 s when the header is absent or unreadable. Seconds are
// digits only (RFC 9110's delay-seconds: no sign, no point), however many: a wait too long for a
// 32- or 64-bit integer is that long, not unreadable, and each loop sleeps it out instead of
// retrying early or failing. Each loop returns any answer but a 429 as it is, error statuses
// included (the lesson's loop only retries 429s). The JavaScript sample runs here; the Python and
// Go ones where python3 and go are installed. (The Rust one is checked in tests/clients_code.rs.)
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchWithRetries, retryAfterSeconds } from '../../lesson/code/clients/retry.js';

const dir = (name) => fileURLToPath(new URL(`../../lesson/code/clients/${name}`, import.meta.url));
const has = (command) => spawnSync(command, ['--version']).status === 0 || spawnSync(command, ['version']).status === 0;

// "Wed, 21 Oct 2015 07:28:00 GMT" is 1445412480 s after the epoch.
const DATE = 'Wed, 21 Oct 2015 07:28:00 GMT';
const AT = 1445412480;
/** [value (null: absent), now in epoch seconds, the wait in seconds] */
const CASES = [
  ['3', AT, 3],
  [' 120 ', AT, 120],
  [DATE, AT - 2.5, 2.5],
  [DATE, AT + 5, 0],
  ['soon', AT, 1],
  ['-1', AT, 1],
  ['+5', AT, 1],
  ['5.0', AT, 1],
  ['1e3', AT, 1],
  [null, AT, 1],
  // What the project's own server sends for a wait past 2³² or 2⁶⁴ s (docs/semantics.md).
  ['4294967296', AT, 4294967296],
  ['50000000000000000000', AT, 5e19],
];

/** A Retry-After longer than any sleep: 5·10¹⁹ s. */
const HUGE = '50000000000000000000';

test('JavaScript: retryAfterSeconds reads seconds and HTTP dates', () => {
  for (const [value, now, wait] of CASES) assert.equal(retryAfterSeconds(value, now * 1000), wait, JSON.stringify(value));
});

test('JavaScript: fetchWithRetries returns any answer but a 429 as it is', async () => {
  const fetch = mock.method(globalThis, 'fetch', async () => new Response('down', { status: 503 }));
  try {
    const response = await fetchWithRetries('http://example.test/', { maxAttempts: 3 });
    assert.equal(response.status, 503);
    assert.equal(fetch.mock.callCount(), 1, 'a 503 is not retried');
  } finally {
    fetch.mock.restore();
  }
});

test('JavaScript: fetchWithRetries sleeps out a Retry-After longer than setTimeout takes', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const fetch = t.mock.method(globalThis, 'fetch', async () => new Response('', { status: 429, headers: { 'Retry-After': HUGE } }));
  fetchWithRetries('http://example.test/', { maxAttempts: 2 });
  // setTimeout fires after 1 ms when given more than 2³¹ − 1 ms; ten steps of 24.8 days later
  // the client is still waiting.
  for (let step = 0; step < 10; step++) {
    for (let i = 0; i < 10; i++) await Promise.resolve();
    t.mock.timers.tick(2 ** 31 - 1);
  }
  for (let i = 0; i < 10; i++) await Promise.resolve();
  assert.equal(fetch.mock.callCount(), 1, `retried before Retry-After: ${HUGE} s`);
});

test('Python: retry_after_seconds reads seconds and HTTP dates', { skip: !has('python3') && 'python3 is not installed' }, () => {
  // `requests` is only the transport: a stand-in module lets the sample import without it.
  const script = `
import json, sys, types
from datetime import datetime, timezone
sys.modules["requests"] = types.ModuleType("requests")
sys.path.insert(0, sys.argv[1])
from retry import retry_after_seconds
cases = json.loads(sys.argv[2])
print(json.dumps([retry_after_seconds(v, datetime.fromtimestamp(now, timezone.utc)) for v, now, _ in cases]))
`;
  const out = execFileSync('python3', ['-c', script, dir(''), JSON.stringify(CASES)], { encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), CASES.map(([, , wait]) => wait));
});

test('Python: get_with_retries returns any answer but a 429 and sleeps out a huge Retry-After', { skip: !has('python3') && 'python3 is not installed' }, () => {
  // A stand-in for \`requests\` that answers from a list, and a time.sleep that records its
  // argument and raises when asked for more than the real one can sleep (as it does, OverflowError
  // or OSError) or after 5 calls.
  const script = `
import json, sys, threading, types
requests = types.ModuleType("requests")
class HTTPError(Exception): pass
class Response:
    def __init__(self, status, headers=None):
        self.status_code, self.headers = status, headers or {}
    def raise_for_status(self):
        if self.status_code >= 400: raise HTTPError(self.status_code)
answers = []
calls = []
def get(url, timeout):
    calls.append(url)
    return answers.pop(0)
requests.get = get
sys.modules["requests"] = requests
sys.path.insert(0, sys.argv[1])
import retry
slept = []
class Stop(Exception): pass
def sleep(seconds):
    if seconds >= threading.TIMEOUT_MAX: raise OverflowError(seconds)
    slept.append(seconds)
    if len(slept) == 5: raise Stop
retry.time.sleep = sleep
answers[:] = [Response(503)]
status = retry.get_with_retries("http://example.test/", max_attempts=3).status_code
answers[:] = [Response(429, {"Retry-After": sys.argv[2]}), Response(200)]
calls.clear()
try:
    retry.get_with_retries("http://example.test/", max_attempts=2)
    outcome = "returned"
except Stop:
    outcome = "still sleeping"
print(json.dumps({"status": status, "outcome": outcome, "requests": len(calls), "slept": sum(slept)}))
`;
  const out = JSON.parse(execFileSync('python3', ['-c', script, dir(''), HUGE], { encoding: 'utf8' }));
  assert.equal(out.status, 503, 'a 503 is returned, not raised');
  assert.equal(out.outcome, 'still sleeping', `Retry-After: ${HUGE}`);
  assert.equal(out.requests, 1, 'no retry before the wait is over');
  assert.ok(out.slept > 0, 'it sleeps');
});

test('Go: RetryAfter reads seconds and HTTP dates, Wait never wraps around, other answers are returned', { skip: !has('go') && 'Go is not installed' }, () => {
  const work = mkdtempSync(join(tmpdir(), 'bucketlab-retry-go-'));
  try {
    // Go before 1.22 has no math/rand/v2; its math/rand has the same Float64.
    const old = /go1\.(1\d|2[01])\b/.test(execFileSync('go', ['version'], { encoding: 'utf8' }));
    const source = readFileSync(dir('retry.go'), 'utf8');
    writeFileSync(join(work, 'retry.go'), old ? source.replace('"math/rand/v2"', '"math/rand"') : source);
    writeFileSync(join(work, 'go.mod'), 'module example.com/retry\n\ngo 1.18\n');
    const rows = CASES.map(([value, now, wait]) => `\t\t{${JSON.stringify(value ?? '')}, ${now}, ${wait}},`).join('\n');
    writeFileSync(join(work, 'retry_test.go'), `package retry

import (
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestAHugeWaitSleepsTheLongestDuration(t *testing.T) {
	b := Backoff{Base: 1, Factor: 2, Cap: 30, MaxAttempts: 6}
	for _, retryAfter := range []float64{5e19, math.Inf(1), 9.3e9} {
		if got := b.Wait(0, retryAfter); got != math.MaxInt64 {
			t.Errorf("Wait(0, %v) = %v, want the longest Duration", retryAfter, got)
		}
	}
	if got := b.Wait(0, 3); got < 3*time.Second || got > 4*time.Second {
		t.Errorf("Wait(0, 3) = %v", got)
	}
}

func TestAnyAnswerButA429IsReturnedAsItIs(t *testing.T) {
	requests := 0
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer server.Close()
	resp, err := GetWithRetries(server.Client(), server.URL, Backoff{Base: 1, Factor: 2, Cap: 30, MaxAttempts: 3})
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable || requests != 1 {
		t.Fatalf("%v, %v after %d requests", resp, err, requests)
	}
	resp.Body.Close()
}

func TestRetryAfter(t *testing.T) {
	for _, c := range []struct {
		value string
		now   float64
		wait  float64
	}{
${rows}
	} {
		now := time.UnixMilli(int64(c.now * 1000))
		if got := RetryAfter(strings.TrimSpace(c.value), now); got != c.wait {
			t.Errorf("%q: %v, want %v", c.value, got, c.wait)
		}
	}
}
`);
    const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOCACHE: join(work, 'cache') };
    try {
      execFileSync('go', ['vet', '.'], { cwd: work, env, stdio: 'pipe' });
      execFileSync('go', ['test', '.'], { cwd: work, env, stdio: 'pipe' });
    } catch (error) {
      assert.fail(`${error.stdout}${error.stderr}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
