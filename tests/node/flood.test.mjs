// simulateFlood in the lab's wasm module (www/pkg/bucketlab_lab*) under Node: runs equal to the
// native ones in tests/fixtures/flood-runs.txt (1, 100 and 10 000 IPs under each layer
// combination), per-second arrays that add up to the summary, and errors that name the option.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { initSync, simulateFlood } from '../../www/pkg/bucketlab_lab.js';
import { readFloodFixture, LAYER_SETS } from '../flood-fixture.mjs';

initSync({ module: readFileSync(new URL('../../www/pkg/bucketlab_lab_bg.wasm', import.meta.url)) });

const fixture = readFloodFixture();

for (const [key, expected] of fixture) {
  test(`flood: ${key} in wasm equals the native run`, () => {
    const [ips, layers] = key.split(' ');
    const run = simulateFlood({ attackers: Number(ips), layers: LAYER_SETS[layers], seed: 1 });
    for (const [name, value] of Object.entries(expected.summary)) {
      assert.ok(Object.is(run.summary[name], value), `${name}: wasm ${run.summary[name]}, native ${value}`);
    }
    assert.deepEqual([...run.seconds.origin], expected.origin);
    const sum = (array) => array.reduce((a, b) => a + b, 0);
    assert.equal(sum(run.seconds.served), run.summary.served);
    assert.equal(sum(run.seconds.origin) - sum(run.seconds.served), run.summary.overloaded);
    assert.equal(sum(run.seconds.sent), run.summary.floodRequests + run.summary.userRequests);
  });
}

test('flood: bad options are named with their value and what is allowed', () => {
  assert.throws(() => simulateFlood({ attackers: 20000 }), { message: 'attackers must be a whole number from 1 to 10000, got 20000' });
  assert.throws(() => simulateFlood({ edgeShare: '90%' }), { message: 'edgeShare must be a finite number from 0 to 1, got a value of type string' });
  assert.throws(() => simulateFlood({ layers: { global: 'yes' } }), { message: 'layers.global must be true (switched on) or false, got "yes"' });
  assert.throws(() => simulateFlood({ layers: { cdn: true } }), /layers has an unknown field "cdn"; allowed fields: edge, perIp, global/);
  assert.throws(() => simulateFlood({ ips: 3 }), /options has an unknown field "ips"/);
  assert.throws(() => simulateFlood({ attackStart: 30 }), { message: 'attackStart must be a finite number from 0 to 12, got 30' });
});
