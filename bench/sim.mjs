// `node bench/sim.mjs`: a 1,000,000-arrival simulation through all seven limiters, in the lab's
// wasm module (one simulate() call: traffic, decisions, samples and peaks all inside wasm) against
// the same algorithms in plain JavaScript (bench/sim-plain.js), run side by side, alternating, each
// the median of several runs. Both generate their own Poisson traffic of about the same size;
// before timing, the JavaScript version is run on the wasm trace and must give identical outcomes.
// `measureSimulation()` returns the figures for bench/run.mjs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initSync, simulate } from '../www/pkg/bucketlab_lab.js';
import { simulatePlain, poissonArrivals, ALGORITHMS } from './sim-plain.js';

const ARRIVALS = 1_000_000;
const RATE = 12.5; // requests per second, against a limit of 10 per second
const LIMIT = 10;
const WINDOW = 1;
const DURATION = ARRIVALS / RATE;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function runWasm(seed) {
  const start = performance.now();
  const result = simulate({ traffic: { pattern: 'poisson', rate: RATE }, duration: DURATION, seed, limit: LIMIT, window: WINDOW });
  return { ms: performance.now() - start, result };
}

function runPlain(seed) {
  const start = performance.now();
  const arrivals = poissonArrivals(RATE, DURATION, seed);
  const result = simulatePlain({ arrivals, limit: LIMIT, window: WINDOW, duration: DURATION });
  return { ms: performance.now() - start, result };
}

/** Checks that both implementations decide the wasm trace identically; throws if not. */
function checkSameOutcomes(wasm) {
  const plain = simulatePlain({ arrivals: wasm.arrivals, limit: LIMIT, window: WINDOW, duration: DURATION });
  wasm.lanes.forEach((lane, i) => {
    const other = plain.lanes[i];
    const same = lane.algorithm === other.algorithm && lane.peak === other.peak
      && lane.outcomes.every((o, j) => o === other.outcomes[j]) && lane.delays.every((d, j) => d === other.delays[j])
      && lane.samples.every((s, j) => s === other.samples[j]);
    if (!same) throw new Error(`plain JavaScript and wasm disagree on ${lane.algorithm}`);
  });
}

/**
 * Times both sides `runs` times (after one warm-up each). Returns { arrivals, algorithms, runs,
 * wasmMs, plainMs, ratio (plain / wasm: above 1 means wasm is faster), wasmRuns, plainRuns }.
 */
export function measureSimulation({ runs = 5 } = {}) {
  initSync({ module: readFileSync(new URL('../www/pkg/bucketlab_lab_bg.wasm', import.meta.url)) });
  const warm = runWasm(1).result;
  checkSameOutcomes(warm);
  runPlain(1);
  const wasmRuns = [];
  const plainRuns = [];
  let arrivals = 0;
  for (let i = 0; i < runs; i++) {
    const wasm = runWasm(2 + i);
    arrivals = wasm.result.arrivals.length;
    wasmRuns.push(wasm.ms);
    plainRuns.push(runPlain(2 + i).ms);
  }
  const wasmMs = median(wasmRuns);
  const plainMs = median(plainRuns);
  return { arrivals, algorithms: ALGORITHMS.length, runs, wasmMs, plainMs, ratio: plainMs / wasmMs, wasmRuns, plainRuns };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = measureSimulation({ runs: Number(process.env.RUNS ?? 5) });
  const ms = (v) => `${v.toFixed(0)} ms`;
  console.log(`${r.arrivals.toLocaleString('en')} arrivals (Poisson, ${RATE}/s against ${LIMIT} per ${WINDOW} s) through ${r.algorithms} limiters, median of ${r.runs} runs\n`);
  console.log('| implementation | median | runs |');
  console.log('| --- | ---: | --- |');
  console.log(`| wasm (one simulate() call) | ${ms(r.wasmMs)} | ${r.wasmRuns.map((v) => v.toFixed(0)).join(', ')} |`);
  console.log(`| plain JavaScript | ${ms(r.plainMs)} | ${r.plainRuns.map((v) => v.toFixed(0)).join(', ')} |`);
  console.log(`\nratio plain JS / wasm: ${r.ratio.toFixed(2)} (${r.ratio >= 1 ? 'wasm no slower ✓' : 'wasm slower ✗'})`);
}
