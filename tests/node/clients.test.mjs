// simulateClients in the lab's wasm module (www/pkg/bucketlab_lab*) under Node: runs equal to the
// native ones in tests/fixtures/clients-runs.txt (jitter included: same seed, same attempts on both
// platforms), the metrics read back from the arrays, and its argument errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { initSync, simulateClients } from '../../www/pkg/bucketlab_lab.js';

initSync({ module: readFileSync(new URL('../../www/pkg/bucketlab_lab_bg.wasm', import.meta.url)) });

// The same cases as tests/clients_runs.rs, by fixture name.
const BASE = { clients: 12, successes: 2, spread: 0, capacity: 4, rate: 4, shared: true, maxAttempts: 6, seed: 3 };
const BACKOFF = { base: 0.5, factor: 2, cap: 8 };
const CASES = {
  herd: { ...BASE, policy: { name: 'retryAfter', header: 'whole', jitter: false } },
  'exact-wait': { ...BASE, policy: { name: 'retryAfter', header: 'exact', jitter: false } },
  'retry-after-jitter': { ...BASE, policy: { name: 'retryAfter', header: 'whole', jitter: true, ...BACKOFF } },
  'full-jitter': { ...BASE, spread: 1.5, policy: { name: 'fullJitter', ...BACKOFF } },
  'decorrelated-own-buckets': { ...BASE, spread: 0.5, shared: false, policy: { name: 'decorrelated', ...BACKOFF } },
  exponential: { ...BASE, policy: { name: 'exponential', ...BACKOFF } },
};

const fixture = new Map(
  readFileSync(new URL('../fixtures/clients-runs.txt', import.meta.url), 'utf8')
    .trim().split('\n')
    .map((line) => {
      const [name, values] = line.split(': ');
      return [name, values.split(' ').map(Number)];
    }),
);

const same = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

for (const [name, options] of Object.entries(CASES)) {
  test(`${name}: the wasm run equals the native one`, () => {
    const run = simulateClients(options);
    assert.ok(run.times instanceof Float64Array && run.outcomes instanceof Uint8Array);
    assert.ok(same([...run.times], fixture.get(`${name} times`)), 'times');
    assert.ok(same([...run.next], fixture.get(`${name} next`)), 'next attempt times');
    assert.ok(same([...run.outcomes], fixture.get(`${name} outcomes`)), 'outcomes');
  });
}

test('the metrics agree with the arrays they summarise', () => {
  const run = simulateClients({ clients: 100, spread: 0, capacity: 10, rate: 10, maxAttempts: 50, seed: 1,
    policy: { name: 'retryAfter', header: 'exact', jitter: true, base: 1, factor: 2, cap: 30 } });
  const m = run.metrics;
  const admitted = run.outcomes.filter((o) => o === 0).length;
  assert.equal(m.attempts, run.times.length);
  assert.equal(m.successes, admitted);
  assert.equal(m.gaveUp, run.outcomes.filter((o) => o === 2).length);
  assert.equal(m.attemptsPerSuccess, run.times.length / admitted);
  assert.equal(m.deniedShare, (run.times.length - admitted) / run.times.length);
  const finished = [...run.finish].filter((t) => !Number.isNaN(t)).sort((a, b) => a - b);
  assert.equal(m.finishMax, finished.at(-1));
  // The peak: the most attempts in any [t, t + 0.1), counted by brute force; a time within the
  // core's slack of a span's end is past it (1.2 is not in [1.1, 1.2), though 1.2 − 1.1 < 0.1).
  const slack = (u) => Math.max(1e-9, Math.abs(u) * 4 * Number.EPSILON);
  let peak = 0;
  for (const t of run.times) peak = Math.max(peak, run.times.filter((u) => u >= t && u < t + 0.1 - slack(u)).length);
  assert.equal(m.peak, peak);
});

test('bad options name the field, the value and what is allowed', () => {
  const cases = [
    [{ clients: 0 }, 'clients must be a whole number from 1 to 500, got 0'],
    [{ clients: 2.5 }, 'clients must be a whole number from 1 to 500, got 2.5'],
    [{ spread: -1 }, 'spread must be a finite number from 0 to 3600, got -1'],
    [{ rate: 'fast' }, 'rate must be a finite number greater than 0 and at most 10000, got a value of type string'],
    [{ policy: { name: 'exponential', factor: 20 } }, 'policy.factor must be a finite number from 1 to 10, got 20'],
    [{ policy: { name: 'fullJitter', base: 2, cap: 1 } }, 'policy.cap must be a finite number from 2 to 3600, got 1'],
    [{ policy: { name: 'sleepy' } }, 'policy.name must be one of "hammer", "fixed", "retryAfter", "exponential", "fullJitter", "decorrelated", got "sleepy"'],
    [{ policy: { name: 'hammer', wait: 1 } }, 'policy has an unknown field "wait"; allowed fields: name'],
    [{ shared: 'yes' }, 'shared must be true (one bucket) or false (one per client), got "yes"'],
    [{ clinets: 5 }, /options has an unknown field "clinets"/],
    // A key given as undefined (a form field left empty) is missing, not the default.
    [{ clients: undefined }, 'clients must be a whole number from 1 to 500, it is missing'],
    [{ policy: { name: 'exponential', base: undefined } }, 'policy.base must be a finite number greater than 0 and at most 3600, it is missing'],
  ];
  for (const [options, message] of cases) {
    assert.throws(() => simulateClients(options), (err) => err instanceof Error
      && (typeof message === 'string' ? err.message === message : message.test(err.message)), JSON.stringify(options));
  }
  // A key left out takes its default.
  assert.equal(simulateClients({}).metrics.attempts, simulateClients({ clients: 100 }).metrics.attempts);
});

test('the herd preset reads Retry-After as HTTP sends it: retries land on whole seconds, in waves', async () => {
  const { HERD, PRESETS, options, runAll, policyKey } = await import('../../www/lesson/clients/runs.js');
  assert.equal(HERD.header, 'whole');
  assert.equal(PRESETS.jitter.header, 'whole');
  const { main, rows } = runAll(simulateClients, HERD);
  const retryTimes = [...main.times].filter((_, i) => main.retries[i]);
  assert.ok(retryTimes.length > 0 && retryTimes.every(Number.isInteger), 'every retry on a whole second');
  // The herd is still a herd: nearly all the refused clients come back in the same 100 ms.
  assert.ok(main.metrics.peakRetries >= 0.8 * HERD.clients, `a wave of ${main.metrics.peakRetries}`);
  // Honouring a real Retry-After never costs more than a fixed one-second wait (the FAQ's advice).
  const row = (policy) => rows.find((r) => r.policy === policy).run.metrics;
  assert.ok(row('retryAfter').attemptsPerSuccess <= row('fixed').attemptsPerSuccess);
  // Leaving the header out means whole seconds too; the exact wait is asked for, and named apart.
  const { policy, ...rest } = options(HERD);
  assert.equal(policy.header, 'whole');
  assert.equal(simulateClients({ ...rest, policy: { name: 'retryAfter' } }).metrics.attempts, main.metrics.attempts);
  assert.equal(policyKey('retryAfter', 'exact'), 'retryAfterExact');
  assert.equal(policyKey('retryAfter', 'whole'), 'retryAfter');
  assert.equal(policyKey('retryAfter', 'exact', true), 'retryAfterExactJitter');
  // Each row is named for what its run did: with the jitter preset, Retry-After's row has the jitter.
  assert.deepEqual(rows.map((r) => r.key), rows.map((r) => r.policy));
  const jittered = runAll(simulateClients, PRESETS.jitter).rows;
  assert.deepEqual(jittered.filter((r) => r.key !== r.policy).map((r) => [r.policy, r.key]), [['retryAfter', 'retryAfterJitter']]);
  assert.notEqual(jittered.find((r) => r.policy === 'retryAfter').run.metrics.attempts, row('retryAfter').attempts);
});
