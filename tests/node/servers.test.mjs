// The several-servers simulation under Node, on the built module's real TokenBucket: local
// buckets let servers × B through a burst, a shared bucket exactly B. (Its words are checked with
// every other table in locales.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { initSync, TokenBucket } from '../../www/pkg/bucketlab.js';
import { simulate } from '../../www/lesson/servers/simulation.js';

initSync({ module: readFileSync(new URL('../../www/pkg/bucketlab_bg.wasm', import.meta.url)) });

const base = { capacity: 5, refillRate: 1, servers: 3 };
const burst = (size) => ({ type: 'burst', size });
const step = (seconds) => ({ type: 'step', seconds });

test('a burst of 20 over 3 servers: 3 × B admitted with local buckets, exactly B with a shared one', () => {
  const local = simulate(TokenBucket, { ...base, mode: 'local', actions: [burst(20)] });
  const shared = simulate(TokenBucket, { ...base, mode: 'shared', actions: [burst(20)] });
  assert.equal(local.admitted, 15);
  assert.equal(shared.admitted, 5);
  assert.deepEqual(local.tokens, [0, 0, 0]);
  assert.deepEqual(shared.tokens, [0]);
  // Round-robin: request i goes to server i mod 3, whatever the mode.
  assert.deepEqual(local.requests.map((r) => r.server), shared.requests.map((r) => r.server));
  assert.deepEqual(local.requests.slice(0, 4).map((r) => r.server), [0, 1, 2, 0]);
  // Shared: the first B pass, wherever they land; every later one is refused.
  assert.deepEqual(shared.requests.map((r) => r.allowed), Array.from({ length: 20 }, (_, i) => i < 5));
});

test('after a step, the refill is multiplied too: servers × r · t with local buckets', () => {
  const actions = [burst(20), step(1), burst(20)];
  const local = simulate(TokenBucket, { ...base, mode: 'local', actions });
  const shared = simulate(TokenBucket, { ...base, mode: 'shared', actions });
  assert.equal(local.admitted, 15 + 3);
  assert.equal(shared.admitted, 5 + 1);
  assert.equal(shared.now, 1);
  assert.deepEqual(shared.bursts, [{ index: 0, now: 0 }, { index: 20, now: 1 }]);
  // A long pause fills every bucket again, never beyond B.
  const later = simulate(TokenBucket, { ...base, mode: 'local', actions: [...actions, step(60)] });
  assert.deepEqual(later.tokens, [5, 5, 5]);
});

test('a replay of the same actions gives the same decisions', () => {
  const actions = [burst(7), step(0.5), burst(9), step(2), burst(20)];
  for (const mode of ['local', 'shared']) {
    const first = simulate(TokenBucket, { ...base, mode, actions });
    const again = simulate(TokenBucket, { ...base, mode, actions });
    assert.deepEqual(again, first, mode);
  }
});

test('an unknown mode is refused, naming it', () => {
  assert.throws(() => simulate(TokenBucket, { ...base, mode: 'redis', actions: [] }),
    { message: 'mode must be one of local, shared, got "redis" (a string)' });
});
