// The lesson's retry loops read both forms of Retry-After alike: whole seconds, or an HTTP date
// (the time until then, at least 0), and 1 s when the header is absent or unreadable. The
// JavaScript sample runs here; the Python and Go ones where python3 and go are installed. (The
// Rust one is checked in tests/clients_code.rs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { retryAfterSeconds } from '../../lesson/code/clients/retry.js';

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
  [null, AT, 1],
];

test('JavaScript: retryAfterSeconds reads seconds and HTTP dates', () => {
  for (const [value, now, wait] of CASES) assert.equal(retryAfterSeconds(value, now * 1000), wait, JSON.stringify(value));
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

test('Go: RetryAfter reads seconds and HTTP dates', { skip: !has('go') && 'Go is not installed' }, () => {
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
	"strings"
	"testing"
	"time"
)

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
