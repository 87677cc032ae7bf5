// `node bench/clients.mjs`: 500 retrying clients × 20 successes in the lab's wasm module (one
// simulateClients() call: event queue, bucket, waits and metrics all inside wasm) against the same
// loop in plain JavaScript (bench/clients-plain.js), alternating, each the median of several runs.
// Before timing, both runs must give identical attempts (times, outcomes, next times).
// `measureClients()` returns the figures for bench/run.mjs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initSync, simulateClients } from '../www/pkg/bucketlab_lab.js';
import { simulateClientsPlain } from './clients-plain.js';

// Exponential backoff has no random draws, so the plain version can match it bit for bit.
export const OPTIONS = {
  clients: 500, successes: 20, spread: 1, capacity: 50, rate: 100, shared: true, maxAttempts: 50, seed: 1,
  policy: { name: 'exponential', base: 0.05, factor: 2, cap: 5 },
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function timed(run) {
  const start = performance.now();
  const result = run();
  return { ms: performance.now() - start, result };
}

/** Throws unless both implementations give the same attempts. */
function checkSame(wasm, plain) {
  for (const key of ['times', 'clients', 'outcomes', 'next']) {
    const a = wasm[key];
    const b = plain[key];
    if (a.length !== b.length || !a.every((v, i) => Object.is(v, b[i]))) {
      throw new Error(`plain JavaScript and wasm disagree on ${key}`);
    }
  }
}

/** Times both sides `runs` times after a warm-up. Returns { attempts, runs, wasmMs, plainMs, wasmRuns, plainRuns }. */
export function measureClients({ runs = 7 } = {}) {
  initSync({ module: readFileSync(new URL('../www/pkg/bucketlab_lab_bg.wasm', import.meta.url)) });
  const wasm = simulateClients(OPTIONS);
  checkSame(wasm, simulateClientsPlain(OPTIONS));
  const wasmRuns = [];
  const plainRuns = [];
  for (let i = 0; i < runs; i++) {
    wasmRuns.push(timed(() => simulateClients(OPTIONS)).ms);
    plainRuns.push(timed(() => simulateClientsPlain(OPTIONS)).ms);
  }
  return { attempts: wasm.times.length, runs, wasmMs: median(wasmRuns), plainMs: median(plainRuns), wasmRuns, plainRuns };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = measureClients({ runs: Number(process.env.RUNS ?? 7) });
  console.log(`${OPTIONS.clients} clients × ${OPTIONS.successes} successes, ${r.attempts.toLocaleString('en')} attempts, median of ${r.runs} runs`);
  console.log(`wasm (one simulateClients() call): ${r.wasmMs.toFixed(1)} ms  [${r.wasmRuns.map((v) => v.toFixed(1)).join(', ')}]`);
  console.log(`plain JavaScript:                  ${r.plainMs.toFixed(1)} ms  [${r.plainRuns.map((v) => v.toFixed(1)).join(', ')}]`);
  console.log(`ratio wasm / plain JS: ${(r.wasmMs / r.plainMs).toFixed(2)}× (goal ≤ 0.50×)`);
}
