// The test and bench server (tests/e2e/harness.mjs) compresses like a static host only when asked:
// the bench's Lighthouse runs get gzip, as the hosts the site is made for send it, while the e2e
// tests and the bench's timings on loopback get the files as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { serve } from '../e2e/harness.mjs';

/** The raw response to GET `url` with `headers`: status, headers and the body's bytes undecoded. */
function fetchRaw(url, headers) {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

test('serve({ compress: true }) gzips text and wasm for a client that accepts it, and only then', async () => {
  const www = new URL('../../www/', import.meta.url);
  const hosted = await serve({ compress: true });
  const plain = await serve();
  try {
    for (const path of ['index.html', 'lesson/main.bundle.js', 'lesson/lesson.css', 'pkg/bucketlab_bg.wasm']) {
      const file = readFileSync(new URL(path, www));
      const zipped = await fetchRaw(`${hosted.url}${path}`, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(zipped.status, 200);
      assert.equal(zipped.headers['content-encoding'], 'gzip', path);
      assert.equal(zipped.headers.vary, 'accept-encoding');
      assert.ok(zipped.body.length < file.length / 2, `${path}: ${zipped.body.length} of ${file.length} B`);
      assert.deepEqual(gunzipSync(zipped.body), file, `${path} decompresses to the file`);
      assert.ok(zipped.headers['content-security-policy'], 'the policy still comes with it');
      for (const [server, headers] of [[hosted, {}], [plain, { 'accept-encoding': 'gzip' }]]) {
        const sent = await fetchRaw(`${server.url}${path}`, headers);
        assert.equal(sent.headers['content-encoding'], undefined, path);
        assert.deepEqual(sent.body, file, `${path} as it is`);
      }
    }
  } finally {
    await hosted.close();
    await plain.close();
  }
});
