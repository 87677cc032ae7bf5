// `node bench/traffic.mjs [--lines N] [--heap-mb M]`: the lesson's replay worker in Chromium.
//
//   1. speed: a 1,000,000-line combined log (bench/replay.mjs's generator, 1,000 clients) set on a
//      file input of the served lesson page and read by (a) the section's worker
//      (www/lesson/traffic/worker.js: wasm, first pass = parse + token bucket per client + the
//      burst–rate curves at 72 rates) and (b) a plain-JavaScript worker doing only parse + bucket
//      (bench/traffic-plain.js), both streaming the same File; 7 runs alternated, median of each
//      (a fresh worker's wasm runs partly in V8's baseline tier until its optimised code is ready,
//      so single runs vary by 2×).
//      Goal: wasm first pass ≤ 0.5 × the JavaScript time. Both must agree on requests and 429s.
//   2. memory: while the worker streams an M MB log (default 500) through the whole job (first
//      pass, the trace pass), the page's main-thread JS heap (CDP Runtime.getHeapUsage, sampled)
//      and the worker's wasm memory (reported by the worker). Goal: heap < 150 MB.
// Runnable alone; prints the figures and the ratio. `measureTraffic()` returns them.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCombinedLog } from './replay.mjs';
import { serve, launch } from '../tests/e2e/harness.mjs';

const BENCH = fileURLToPath(new URL('.', import.meta.url));
const MB = 1_000_000;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const POLICY = { capacity: 10, refillRate: 5 };

/** Opens the lesson with a file input of its own and workers of both kinds ready to run. */
async function benchPage(browser, url) {
  const page = await browser.newPage();
  await page.goto(`${url}en.html`);
  await page.waitForSelector('#bucket-widget .bl-widget');
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-file';
    document.body.append(input);
  });
  return page;
}

/** The wasm worker over the file set on #bench-file: { first pass ms, whole job ms, report }. */
function runWasm(page, options) {
  return page.evaluate((options) => new Promise((resolve, reject) => {
    const file = document.getElementById('bench-file').files[0];
    const worker = new Worker(new URL('./lesson/traffic/worker.js', document.baseURI), { type: 'module' });
    const started = performance.now();
    let first = null;
    let memory = 0;
    worker.onmessage = ({ data }) => {
      if (data.memory) memory = Math.max(memory, data.memory);
      if (data.type === 'pass' && data.pass === 1) first = data.ms;
      if (data.type === 'done') {
        worker.terminate();
        const { report } = data.outcome;
        resolve({ first, whole: performance.now() - started, memory, requests: report.requests, limited: report.limited, keys: report.keys });
      }
      if (data.type === 'failed') reject(new Error(JSON.stringify(data.error)));
    };
    worker.postMessage({ type: 'run', id: 1, file, options });
  }), options);
}

/** The plain-JavaScript worker over the same file. */
function runPlain(page) {
  return page.evaluate((policy) => new Promise((resolve) => {
    const file = document.getElementById('bench-file').files[0];
    const worker = new Worker(new URL('./bench/traffic-plain.js', document.baseURI), { type: 'module' });
    worker.onmessage = ({ data }) => { worker.terminate(); resolve(data); };
    worker.postMessage({ file, ...policy });
  }), POLICY);
}

export async function measureTraffic({ lines = 1_000_000, heapMb = 500, runs = 7, log = console.log } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bucketlab-traffic-bench-'));
  const server = await serve({ mounts: { 'bench/': BENCH } });
  const browser = await launch();
  try {
    const file = join(dir, 'combined.log');
    generateCombinedLog(file, { lines, keys: 1000, seed: 7 });
    const size = statSync(file).size;
    log(`traffic: ${lines} lines, ${(size / MB).toFixed(0)} MB, 1000 clients`);
    const page = await benchPage(browser, server.url);
    await page.setInputFiles('#bench-file', file);
    const wasm = [];
    const plain = [];
    for (let i = 0; i < runs; i++) {
      wasm.push(await runWasm(page, POLICY));
      plain.push(await runPlain(page));
      log(`  run ${i + 1}: wasm first pass ${wasm[i].first.toFixed(0)} ms (whole job ${wasm[i].whole.toFixed(0)} ms), plain JS ${plain[i].ms.toFixed(0)} ms`);
    }
    const [w, p] = [wasm[0], plain[0]];
    if (w.requests !== p.requests || w.limited !== p.limited || w.keys !== p.keys) {
      throw new Error(`the two disagree: wasm ${JSON.stringify(w)}, plain ${JSON.stringify(p)}`);
    }
    const speed = {
      lines, bytes: size, requests: w.requests, limited: w.limited,
      wasmFirstPassMs: median(wasm.map((r) => r.first)),
      wasmWholeJobMs: median(wasm.map((r) => r.whole)),
      plainMs: median(plain.map((r) => r.ms)),
    };
    speed.ratio = speed.wasmFirstPassMs / speed.plainMs;
    log(`traffic speed: wasm ${speed.wasmFirstPassMs.toFixed(0)} ms vs plain JS ${speed.plainMs.toFixed(0)} ms: ratio ${speed.ratio.toFixed(2)} (goal ≤ 0.5); ${(lines / speed.wasmFirstPassMs / 1000).toFixed(2)} M lines/s`);
    await page.close();
    rmSync(file);

    const big = join(dir, 'big.log');
    generateCombinedLog(big, { bytes: heapMb * MB, keys: 10_000, seed: 9 });
    const bigSize = statSync(big).size;
    const heapPage = await benchPage(browser, server.url);
    const cdp = await heapPage.context().newCDPSession(heapPage);
    await heapPage.setInputFiles('#bench-file', big);
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { usedSize } = await cdp.send('Runtime.getHeapUsage');
        peak = Math.max(peak, usedSize);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const job = await runWasm(heapPage, POLICY);
    sampling = false;
    await sampler;
    const memory = { bytes: bigSize, heapPeakBytes: peak, wasmMemoryBytes: job.memory, ms: job.whole };
    log(`traffic memory: ${(bigSize / MB).toFixed(0)} MB log streamed in ${(job.whole / 1000).toFixed(1)} s: page JS heap peak ${(peak / MB).toFixed(1)} MB (goal < 150 MB), worker wasm memory ${(job.memory / MB).toFixed(1)} MB`);
    return { speed, memory };
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  await measureTraffic({ lines: arg('--lines', 1_000_000), heapMb: arg('--heap-mb', 500) });
}
