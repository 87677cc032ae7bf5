// The built module under Node: initSync with the wasm bytes (no DOM needed), then TokenBucket
// through SEMANTICS.md's worked example and its error messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { initSync, TokenBucket } from '../../www/pkg/bucketlab.js';

initSync({ module: readFileSync(new URL('../../www/pkg/bucketlab_bg.wasm', import.meta.url)) });

test('the lesson\'s worked example: B = 5, r = 1, starting full', () => {
  const bucket = new TokenBucket({ capacity: 5, refillRate: 1 });
  assert.equal(bucket.capacity, 5);
  assert.equal(bucket.refillRate, 1);
  for (let i = 0; i < 5; i++) {
    const d = bucket.tryAcquireAt(1, 0);
    assert.deepEqual(d, { allowed: true, tokens: 4 - i, retryAfter: 0, never: null }, `request ${i}`);
  }
  assert.deepEqual(bucket.tryAcquireAt(1, 0), { allowed: false, tokens: 0, retryAfter: 1, never: null });
  assert.equal(bucket.tryAcquireAt(1, 1).allowed, true, 'retry exactly at retryAfter passes');
  assert.deepEqual(bucket.tryAcquireAt(1, 1.5), { allowed: false, tokens: 0.5, retryAfter: 0.5, never: null });
  assert.equal(bucket.tokensAt(10), 5, 'full again at t = 10, not 9');
});

test('initial tokens and the "never" outcome', () => {
  const empty = new TokenBucket({ capacity: 2, refillRate: 0, tokens: 0 });
  assert.equal(empty.tokensAt(0), 0);
  assert.deepEqual(empty.tryAcquireAt(1, 5), { allowed: false, tokens: 0, retryAfter: null, never: 'noRefill' });
  const full = new TokenBucket({ capacity: 2, refillRate: 1 });
  assert.deepEqual(full.tryAcquireAt(3, 0), { allowed: false, tokens: 2, retryAfter: null, never: 'costExceedsCapacity' });
  assert.equal(full.tryAcquireAt(0, 0).allowed, true, 'cost 0 always passes');
});

test('bad config throws an Error naming the field, the value and the rule', () => {
  const cases = [
    [{ capacity: 0, refillRate: 1 }, /^capacity must be a finite number greater than 0, got 0$/],
    [{ capacity: NaN, refillRate: 1 }, /^capacity must be .*, got NaN$/],
    [{ capacity: Infinity, refillRate: 1 }, /^capacity must be .*, got Infinity$/],
    [{ capacity: '10', refillRate: 1 }, /^capacity must be .*, got a value of type string$/],
    [{ refillRate: 1 }, /^capacity must be .*, it is missing$/],
    [{ capacity: 10, refillRate: -5 }, /^refillRate must be a finite number of at least 0, got -5$/],
    [{ capacity: 10, refillRate: 5, tokens: 11 }, /^tokens must be a finite number from 0 to 10, got 11$/],
    [{ capacity: 10, refill_rate: 5 }, /unknown field "refill_rate"; allowed fields: capacity, refillRate, tokens/],
    [null, /^config must be an object/],
    [undefined, /^config must be an object/],
  ];
  for (const [config, message] of cases) {
    assert.throws(() => new TokenBucket(config), (e) => e instanceof Error && message.test(e.message),
      JSON.stringify(config));
  }
});

test('bad arguments throw and leave the bucket unchanged', () => {
  const bucket = new TokenBucket({ capacity: 3, refillRate: 1 });
  bucket.tryAcquireAt(1, 0);
  assert.throws(() => bucket.tryAcquireAt(NaN, 1), /^Error: cost must be a finite number of at least 0, got NaN$/);
  assert.throws(() => bucket.tryAcquireAt(-1, 1), /cost must be .*, got -1$/);
  assert.throws(() => bucket.tryAcquireAt(1, 'soon'), /nowSeconds must be a finite number, got a value of type string$/);
  assert.throws(() => bucket.tryAcquireAt(1), /nowSeconds must be a finite number, it is missing$/);
  assert.throws(() => bucket.tokensAt(Infinity), /nowSeconds must be a finite number, got Infinity$/);
  assert.equal(bucket.tokensAt(0), 2);
});

test('a freed bucket says it was freed, and a second free() does nothing', () => {
  const bucket = new TokenBucket({ capacity: 5, refillRate: 1 });
  bucket.free();
  assert.doesNotThrow(() => bucket.free());
  const freed = { message: 'this TokenBucket was freed (free() was called); create a new one' };
  assert.throws(() => bucket.tokensAt(0), freed);
  assert.throws(() => bucket.capacity, freed);
  assert.equal(new TokenBucket({ capacity: 5, refillRate: 1 }).tokensAt(0), 5, 'others work');
});

test('a call before the module is loaded says to await init() first, and works once it is', async () => {
  // A module instance of its own (the query), which nothing has initialised yet.
  const glue = await import('../../www/pkg/bucketlab.js?before-init');
  const notReady = { message: 'bucketlab is not loaded yet: await init() (the default export) before using its API' };
  assert.throws(() => new glue.TokenBucket({ capacity: 5, refillRate: 1 }), notReady);
  assert.throws(() => glue.mountDiagram({}), notReady);
  glue.initSync({ module: readFileSync(new URL('../../www/pkg/bucketlab_bg.wasm', import.meta.url)) });
  assert.equal(new glue.TokenBucket({ capacity: 5, refillRate: 1 }).tokensAt(0), 5);
  assert.equal(await glue.default(), glue.initSync({ module: new Uint8Array() }), 'init() again returns the same module');
});
