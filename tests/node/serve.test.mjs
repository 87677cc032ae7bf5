// scripts/serve.sh (what `make serve` runs) lets a course page on another origin load the
// <bucket-lab> element from it: every file it serves allows any origin, as www/_headers has a
// static host do for the element's files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../e2e/harness.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;

test('make serve sends Access-Control-Allow-Origin: * with the element, its glue, wasm and stylesheets', async () => {
  const port = await freePort();
  const server = spawn('scripts/serve.sh', ['--no-build'], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  try {
    let ready = false;
    for (let i = 0; i < 100 && !ready; i++) {
      ready = await fetch(`http://127.0.0.1:${port}/`).then(() => true, () => false);
      if (!ready) await sleep(100);
    }
    assert.ok(ready, 'the server answers');
    for (const [path, type] of [
      ['bucket-lab.js', 'text/javascript'],
      ['element/bucket-lab.js', 'text/javascript'],
      ['pkg/bucketlab.js', 'text/javascript'],
      ['pkg/bucketlab_bg.wasm', 'application/wasm'],
      ['element/widget.css', 'text/css'],
      ['element/bucket-lab.css', 'text/css'],
    ]) {
      const response = await fetch(`http://127.0.0.1:${port}/${path}`, { headers: { origin: 'https://course.example' } });
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('access-control-allow-origin'), '*', path);
      assert.ok(response.headers.get('content-type').startsWith(type), `${path}: ${response.headers.get('content-type')}`);
      await response.arrayBuffer();
    }
  } finally {
    server.kill();
  }
});
