// The lab's wasm module (www/pkg/bucketlab_lab*) under Node: traces equal to the native ones in
// tests/fixtures/lab-traces.txt (same seed → same trace on both platforms), simulate's results,
// and its argument errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { initSync, simulate, TokenBucket } from '../../www/pkg/bucketlab_lab.js';
import { FACTS, freshSeed, makeQuestions } from '../../www/lesson/lab/questions.js';
import labTables from '../../www/i18n/locales/lab.js';
import { translator } from '../../www/i18n/translate.js';
import { EXPERIMENTS } from '../../www/lesson/lab/experiments.js';

initSync({ module: readFileSync(new URL('../../www/pkg/bucketlab_lab_bg.wasm', import.meta.url)) });

// The same cases as tests/lab_traffic.rs, by fixture line name.
const CASES = {
  steady: { traffic: { pattern: 'steady', rate: 7 }, duration: 3, seed: 1 },
  burst: { traffic: { pattern: 'burst', size: 4, every: 0.75 }, duration: 3, seed: 1 },
  poisson: { traffic: { pattern: 'poisson', rate: 12.5 }, duration: 5, seed: 42 },
  'poisson-seed-43': { traffic: { pattern: 'poisson', rate: 12.5 }, duration: 5, seed: 43 },
  ramp: { traffic: { pattern: 'ramp', from: 2, to: 30 }, duration: 4, seed: 1 },
  'window-edge': { traffic: { pattern: 'windowEdge' }, duration: 4, seed: 1 },
  pasted: { traffic: { pattern: 'pasted', timestamps: '0.1\n0,5\n\n2.25\n2.25' }, duration: 3, seed: 1 },
};

const fixture = new Map(
  readFileSync(new URL('../fixtures/lab-traces.txt', import.meta.url), 'utf8')
    .trim().split('\n')
    .map((line) => {
      const [name, times] = line.split(': ');
      return [name, times.split(' ').map(Number)];
    }),
);

const lane = (run, name) => run.lanes.find((l) => l.algorithm === name);

test('lab: every pattern gives, in wasm, exactly the native trace for its seed', () => {
  assert.deepEqual([...fixture.keys()].sort(), Object.keys(CASES).sort());
  for (const [name, options] of Object.entries(CASES)) {
    const once = simulate({ ...options, algorithms: ['tokenBucket'], limit: 10, window: 1 });
    const twice = simulate({ ...options, algorithms: ['tokenBucket'], limit: 10, window: 1 });
    assert.ok(once.arrivals instanceof Float64Array, name);
    assert.deepEqual(once.arrivals, twice.arrivals, `${name}: same seed, same trace`);
    // Bit for bit: Object.is tells 0 from -0 and compares every digit.
    const native = fixture.get(name);
    assert.equal(once.arrivals.length, native.length, name);
    once.arrivals.forEach((t, i) => assert.ok(Object.is(t, native[i]), `${name}[${i}]: ${t} vs ${native[i]}`));
  }
  const other = simulate({ traffic: { pattern: 'poisson', rate: 12.5 }, duration: 5, seed: 44, algorithms: ['gcra'] });
  assert.notDeepEqual(other.arrivals, fixture.get('poisson'), 'another seed, another trace');
});

test('lab: the window-edge attack: the fixed window admits 2 × limit within a second, the log only the limit', () => {
  const run = simulate({ traffic: { pattern: 'windowEdge' }, duration: 2, seed: 0, limit: 10, window: 1 });
  assert.deepEqual(run.lanes.map((l) => l.algorithm),
    ['fixedWindow', 'slidingLog', 'slidingCounter', 'leakyQueue', 'leakyMeter', 'gcra', 'tokenBucket']);
  const fixed = lane(run, 'fixedWindow');
  assert.equal(fixed.admitted, 20);
  assert.equal(fixed.peak, 20);
  assert.ok(fixed.peakStart >= 0.9 && fixed.peakStart < 1, `peak starts at ${fixed.peakStart}`);
  assert.equal(lane(run, 'slidingLog').peak, 10);
  for (const l of run.lanes) {
    assert.equal(l.admitted + l.delayed + l.denied, run.arrivals.length, l.algorithm);
    assert.equal(l.outcomes.length, run.arrivals.length, l.algorithm);
    assert.ok(l.outcomes instanceof Uint8Array && l.delays instanceof Float64Array && l.samples instanceof Float64Array);
    assert.equal(l.samples.length, 200);
    assert.equal(l.admitted, l.outcomes.filter((o) => o === 0).length, l.algorithm);
    assert.equal(l.denied, l.outcomes.filter((o) => o === 2).length, l.algorithm);
  }
  // GCRA and the leaky meter decide exactly like the token bucket.
  assert.deepEqual(lane(run, 'gcra').outcomes, lane(run, 'tokenBucket').outcomes);
  assert.deepEqual(lane(run, 'leakyMeter').outcomes, lane(run, 'tokenBucket').outcomes);
  const queue = lane(run, 'leakyQueue');
  assert.ok(queue.delayed > 0 && queue.peak <= 10, `queue: ${queue.delayed} delayed, peak ${queue.peak}`);
  queue.outcomes.forEach((o, i) => assert.equal(queue.delays[i] > 0, o === 1, `request ${i}`));
});

test('lab: the peak is counted over one window, as the limit: "100 a minute" attacked on its edge shows the fixed window\'s double', () => {
  const run = simulate({ traffic: { pattern: 'windowEdge' }, duration: 150, seed: 0, limit: 100, window: 60, algorithms: ['fixedWindow', 'slidingLog'] });
  assert.deepEqual(run.lanes.map((l) => [l.algorithm, l.peak, l.peakStart]), [['fixedWindow', 200, 54], ['slidingLog', 100, 54]]);
});

test('lab: a window-edge run too short for its first attack whole is refused with the least duration, not cut', () => {
  const options = { traffic: { pattern: 'windowEdge' }, seed: 0, limit: 10, window: 3, algorithms: ['fixedWindow'] };
  assert.equal(simulate({ ...options, duration: 3.3 }).arrivals.length, 20);
  assert.throws(() => simulate({ ...options, duration: 2.5 }), (error) => {
    assert.match(error.message, /^duration must be .*3\.3/);
    assert.deepEqual([error.problem.field, error.problem.rule, error.problem.min], ['duration', 'between', 3.3]);
    return true;
  });
});

test('lab: "Bursts of 25" shows what its text says: the buckets pass the refill of each half second, the windows all or nothing', () => {
  const { setup } = EXPERIMENTS.find((e) => e.id === 'burst');
  const { pattern, size, every, duration, limit, window } = setup;
  const run = simulate({ traffic: { pattern, size, every }, duration, limit, window, seed: 1, algorithms: ['fixedWindow', 'slidingLog', 'leakyQueue', 'leakyMeter', 'gcra', 'tokenBucket'] });
  const bursts = Math.ceil(duration / every);
  assert.equal(run.arrivals.length, bursts * size);
  // Admitted (and delayed) requests per burst, per lane.
  const perBurst = (l, outcome) => Array.from({ length: bursts }, (_, b) => l.outcomes.slice(b * size, (b + 1) * size).filter((o) => o === outcome).length);
  const rest = Array(bursts - 1);
  for (const name of ['leakyMeter', 'gcra', 'tokenBucket']) {
    assert.deepEqual(perBurst(lane(run, name), 0), [limit, ...rest.fill(limit * every / window)], name);
  }
  for (const name of ['fixedWindow', 'slidingLog']) {
    assert.deepEqual(perBurst(lane(run, name), 0), Array.from({ length: bursts }, (_, b) => (b % 2 === 0 ? limit : 0)), name);
  }
  // Who delays: the queue passes one at once and holds the rest of what fits.
  const queue = lane(run, 'leakyQueue');
  assert.ok(perBurst(queue, 1).every((delayed) => delayed > 0), `queue: ${perBurst(queue, 1)}`);
  // …and sends no more than its rate in any second, though its sends at 3.3 and 4.3 are
  // a rounding under one second apart in a double.
  assert.equal(queue.peak, limit);
});

test('lab: a pasted list as an array of numbers, with the samples spaced over the duration', () => {
  const run = simulate({ algorithms: ['slidingLog', 'fixedWindow'], limit: 2, window: 1, duration: 2, samples: 5,
    traffic: { pattern: 'pasted', timestamps: [0.2, 0.4, 0.6, 1.1, 1.3] } });
  assert.equal(run.sampleInterval, 0.5);
  assert.deepEqual([...lane(run, 'slidingLog').outcomes], [0, 0, 2, 2, 0]);
  assert.deepEqual([...lane(run, 'fixedWindow').outcomes], [0, 0, 2, 0, 0]);
  assert.deepEqual([...lane(run, 'fixedWindow').samples], [0, 2, 0, 2, 0]);
});

test('lab: bad arguments throw an Error naming the option, the value and what is allowed', () => {
  const ok = { traffic: { pattern: 'steady', rate: 5 }, duration: 2 };
  const cases = [
    [undefined, /^options must be an object, it is missing$/],
    [[], /^options must be an object, got a value of type array$/],
    [{ ...ok, speed: 2 }, /^options has an unknown field "speed"; allowed fields: algorithms, traffic, duration, seed, limit, window, samples$/],
    [{ ...ok, duration: 0 }, /^duration must be a finite number greater than 0 and at most 1000000, got 0$/],
    [{ traffic: ok.traffic }, /^duration must be .*, it is missing$/],
    [{ ...ok, duration: '2' }, /^duration must be .*, got a value of type string$/],
    [{ ...ok, limit: 2.5 }, /^limit must be a whole number from 1 to 10000, got 2.5$/],
    [{ ...ok, window: -1 }, /^window must be a finite number from 0.001 to 86400, got -1$/],
    [{ ...ok, seed: -3 }, /^seed must be a whole number from 0 to 4294967295, got -3$/],
    [{ ...ok, samples: 1 }, /^samples must be a whole number from 2 to 10000, got 1$/],
    [{ ...ok, algorithms: [] }, /^algorithms must be a non-empty array of names from "fixedWindow", .*"tokenBucket", got an empty array$/],
    [{ ...ok, algorithms: ['gcra', 'tokenbucket'] }, /^algorithms\[1\] must be one of "fixedWindow", .*, got "tokenbucket"$/],
    [{ ...ok, algorithms: ['gcra', 'gcra'] }, /^algorithms\[1\] is "gcra" again; name each algorithm once$/],
    [{ ...ok, traffic: undefined }, /^traffic must be an object, it is missing$/],
    [{ ...ok, traffic: { pattern: 'flood' } }, /^traffic.pattern must be one of "steady", "burst", "poisson", "ramp", "windowEdge", "pasted", got "flood"$/],
    [{ ...ok, traffic: { pattern: 'steady', rate: 5, size: 3 } }, /^traffic has an unknown field "size"; allowed fields: pattern, rate$/],
    [{ ...ok, traffic: { pattern: 'steady' } }, /^traffic.rate must be .*, it is missing$/],
    [{ ...ok, traffic: { pattern: 'poisson', rate: 1e6 } }, /^traffic.rate must be a finite number greater than 0 and at most 100000, got 1000000$/],
    [{ ...ok, traffic: { pattern: 'burst', size: 0, every: 1 } }, /^traffic.size must be a whole number from 1 to 10000, got 0$/],
    [{ ...ok, traffic: { pattern: 'ramp', from: 0, to: 0 } }, /^traffic.to must be .*, got 0$/],
    [{ ...ok, duration: 1000, traffic: { pattern: 'steady', rate: 5000 } }, /^duration must be a finite number greater than 0 and at most 360, got 1000$/],
    [{ ...ok, traffic: { pattern: 'pasted', timestamps: '0.5\n0.25' } }, /^traffic.timestamps line 2: 0.25 comes before the previous time, 0.5; list the times in ascending order$/],
    [{ ...ok, traffic: { pattern: 'pasted', timestamps: '0.5\n\nsoon' } }, /^traffic.timestamps line 3: "soon" is not a number; write one time in seconds per line, such as 0.25$/],
    [{ ...ok, traffic: { pattern: 'pasted', timestamps: '0.5\n2.5' } }, /^traffic.timestamps line 2: 2.5 is not before the end of the simulation; times must be less than the duration, 2$/],
    [{ ...ok, traffic: { pattern: 'pasted', timestamps: [0.5, 7] } }, /^traffic.timestamps\[1\]: 7 is not before the end/],
    [{ ...ok, traffic: { pattern: 'pasted', timestamps: [0.5, '1'] } }, /^traffic.timestamps\[1\] must be a number of seconds, got "1"$/],
    [{ ...ok, traffic: { pattern: 'pasted', timestamps: '' } }, /^traffic.timestamps: no times given/],
    // Not 1 s: a thousand to an English reader.
    [{ ...ok, traffic: { pattern: 'pasted', timestamps: '0,5\n1,000' } }, /^traffic.timestamps line 2: "1,000" could mean 1000 or 1.000; write the one you mean without a thousands separator$/],
    [{ ...ok, traffic: { pattern: 'pasted' } }, /^traffic.timestamps must be text .* or an array of numbers, got nothing \(it is missing\)$/],
  ];
  for (const [options, message] of cases) {
    assert.throws(() => simulate(options), (e) => e instanceof Error && message.test(e.message),
      `${JSON.stringify(options)} → ${(() => { try { simulate(options); return 'no error'; } catch (e) { return e.message; } })()}`);
  }
});

test('lab: a refused pasted time carries its problem as data for the page to word', () => {
  try {
    simulate({ traffic: { pattern: 'pasted', timestamps: '0.5\n 1,000' }, duration: 2, seed: 1 });
    assert.fail('not refused');
  } catch (e) {
    assert.deepEqual({ ...e.problem }, { field: 'traffic.timestamps', line: 2, given: '1,000', code: 'ambiguous' });
  }
});

test('lab: the plain JavaScript limiters of bench/sim-plain.js decide exactly like the wasm core', async () => {
  const { simulatePlain } = await import('../../bench/sim-plain.js');
  const patterns = [
    { pattern: 'poisson', rate: 14 },
    { pattern: 'burst', size: 13, every: 1.7 },
    { pattern: 'ramp', from: 1, to: 40 },
    { pattern: 'windowEdge' },
    { pattern: 'steady', rate: 10 },
  ];
  for (const traffic of patterns) {
    for (const [limit, window] of [[10, 1], [3, 0.7], [25, 2.5]]) {
      const wasm = simulate({ traffic, duration: 60, seed: 9, limit, window, samples: 50 });
      const plain = simulatePlain({ arrivals: wasm.arrivals, limit, window, duration: 60, samples: 50 });
      wasm.lanes.forEach((lane, i) => {
        const other = plain.lanes[i];
        const where = `${lane.algorithm}, ${JSON.stringify(traffic)}, ${limit} per ${window} s`;
        assert.equal(other.algorithm, lane.algorithm);
        assert.deepEqual(other.outcomes, lane.outcomes, where);
        assert.deepEqual(other.delays, lane.delays, where);
        assert.deepEqual(other.samples, lane.samples, where);
        assert.deepEqual([other.peak, other.peakStart], [lane.peak, lane.peakStart], where);
      });
    }
  }
});

test("the lab's time axis has at most 8 steps of 1, 2 or 5 times a power of ten at any duration, with the decimals they need", async () => {
  const { tickStep } = await import('../../www/lesson/lab/chart.js');
  for (const span of [0.05, 0.3, 1, 3, 10, 60, 3600, 86400, 100000]) {
    const { step, digits } = tickStep(span);
    const ticks = Math.floor(span / step + 1e-9) + 1;
    assert.ok(ticks >= 4 && ticks <= 9, `${span} s: ${ticks} ticks of ${step}`);
    assert.match(String(step / 10 ** Math.floor(Math.log10(step) + 1e-9)), /^(1|2|5)(\.0+\d)?$/, `${span} s: step ${step}`);
    assert.equal(Number(step.toFixed(digits)), step, `${span} s: ${digits} decimals write ${step}`);
  }
  // A day used to get 433 labels (steps stopped at 200), and 0.05 s one label, "0".
  assert.equal(tickStep(86400).step, 20000);
  assert.deepEqual(tickStep(0.05), { step: 0.01, digits: 2 });
});

test('quiz: "New questions" repeats none of the last set\'s questions, in either language, and takes its facts in turn; the token-bucket question can be "none pass"', () => {
  for (const lang of ['en', 'pt-BR']) {
    const t = translator(labTables, lang);
    const questionsFor = (seed) => makeQuestions({ simulate, TokenBucket, t, seed });
    let seed = 1;
    let shown = questionsFor(seed);
    // The first set asks the two facts it always asked, so answers kept from before still fit.
    assert.deepEqual(shown.filter((q) => FACTS.includes(q.id)).map((q) => q.id), ['memory', 'smooth']);
    const facts = new Set();
    for (let round = 1; round <= 30; round++) {
      const next = freshSeed(seed, shown, questionsFor);
      assert.ok(next > seed);
      const fresh = questionsFor(next);
      const repeated = fresh.filter((q) => shown.some((old) => old.prompt === q.prompt));
      assert.deepEqual(repeated.map((q) => q.id), [], `${lang}, set ${round} (seed ${next})`);
      const asked = fresh.filter((q) => FACTS.includes(q.id));
      assert.equal(asked.length, 2, `${lang}, set ${round}`);
      for (const q of asked) {
        facts.add(q.id);
        assert.ok(q.options.some((o) => o.value === q.answer) && q.options.length === 4, q.id);
        assert.doesNotMatch(q.prompt + q.explain, /\{|quiz\./, q.id);
      }
      [seed, shown] = [next, fresh];
    }
    assert.deepEqual([...facts].sort(), [...FACTS].sort(), lang);
    const verdicts = new Set(Array.from({ length: 200 }, (_, i) => questionsFor(i + 1).find((q) => q.id === 'tokens').answer));
    assert.deepEqual([...verdicts].sort(), ['all', 'none', 'some'], lang);
  }
});
