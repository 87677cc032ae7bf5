// The lesson's Python bucket (lesson/code/algorithm/token_bucket.py), as the English page shows it,
// under threads: a server such as Flask's runs requests on several threads at once, and check and
// debit must be one step, or two of them spend the same token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

const PYTHON_CHECK = `
import json, threading, time
from token_bucket import TokenBucket

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
print(json.dumps({"over_b": over_b}))
`;

test('Python: token_bucket.py admits at most B under threads', { skip: !hasPython && 'python3 is not installed' }, async () => {
  const out = await withFiles({
    'token_bucket.py': sample('lesson/code/algorithm/token_bucket.py'),
    'check.py': PYTHON_CHECK,
  }, (dir) => JSON.parse(execFileSync('python3', ['check.py'], { cwd: dir, encoding: 'utf8' })));
  assert.deepEqual(out.over_b, Array(10).fill(1), 'one admission of B = 1 per trial');
});
