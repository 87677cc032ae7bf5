// `node bench/run.mjs` (or `make bench`, which builds first): measures the lesson in Debian's
// headless Chromium and prints one table, measure | value | goal | ✓/✗, as a Markdown table.
//
//   1. idle: requestAnimationFrame callbacks per second on the lesson page, whose single
//      diagram starts full and so should schedule no frame at all;
//   2. load: main-thread time per frame with 20 diagrams animating (bench/pages/bench-20.html),
//      from a Chrome DevTools Protocol trace (see bench/frames.mjs for the exact method);
//   3. size: the wasm module and the JS glue, raw / gzip -9 / brotli, and the lesson's transfer;
//   4. time from navigation to an interactive widget (the page's `bucketlab:interactive` mark);
//   5. the core's native decision cost against the governor crate (`cargo bench`, bench/peers.mjs);
//   6. a 1,000,000-arrival simulation through every lab algorithm: wasm under Node against the
//      same algorithms in plain JavaScript (bench/sim.mjs);
//   6b. 500 retrying clients × 20 successes in one wasm call against the same loop in plain
//      JavaScript (bench/clients.mjs);
//   7. Lighthouse scores of the lesson page (mobile preset, served gzipped; bench/peers.mjs);
//   8. the native `bucketlab replay` command: throughput on a 1,000,000-line combined log against
//      Debian's goaccess, and its peak memory on logs up to 1 GB (bench/replay.mjs).
//   9. "main control usable" on the lesson, embed.html and a bare one-button page, with ratios
//      (bench/usable.mjs);
//  10. the lesson's replay worker against a plain-JavaScript worker on 1,000,000 combined lines,
//      and the page's JS heap while it streams a 500 MB log (bench/traffic.mjs).
//
// `node bench/run.mjs usable` measures only 9 and the wasm's size (quick, while working on them);
// `node bench/run.mjs first-minute` adds 2: issue 14's three figures.
// Timings are medians over repeated runs, each on a freshly loaded page. Progress goes to
// stderr, the table to stdout. Exit status: 0 when everything was measured (a ✗ is a result,
// not a failure), 1 when something could not be measured (no build, no browser, a page error).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { serve, launch, openPage } from '../tests/e2e/harness.mjs';
import { TRACE_CATEGORIES, framesFromTrace, framesPerSecond, median, percentile } from './frames.mjs';
import { LESSON_FILES, measureSizes } from './sizes.mjs';
import { lighthouseScores, nativeDecisionCost } from './peers.mjs';
import { measureSimulation } from './sim.mjs';
import { measureReplay } from './replay.mjs';
import { measureClients, OPTIONS as CLIENTS } from './clients.mjs';
import { measureUsable } from './usable.mjs';
import { measureTraffic } from './traffic.mjs';

const WWW = new URL('../www/', import.meta.url);
/** The benchmark pages, served at bench/ beside the site's files (they use its pkg/ and element/). */
const BENCH_PAGES = { 'bench/': new URL('./pages/', import.meta.url).pathname };
const IDLE_RUNS = 3;
const IDLE_SECONDS = 2;
const LOAD_RUNS = 5;
const LOAD_SECONDS = 3;
const LOAD_INSTANCES = 20;
const WARM_UP_FRAMES = 90; // ~1.5 s at 60 Hz: wasm tier-up and first-paint costs settle first
const FRAME_BUDGET_MS = 8; // issue 14: p95 main-thread time per frame, 20 diagrams
const QUIET = 0.2; // share of CPUs busy below which the machine counts as quiet
const KIB = 1024;
const WASM_GZIP_BUDGET = 20 * KIB; // issue 14's goal (tests/node/size_budget.test.mjs enforces the current budget)
const USABLE_RUNS = 15; // cold loads vary by tens of ms; 15 steady the medians
const USABLE_RATIO_GOAL = 1.5;
const PAGE_GZIP_BUDGET = 151 * KIB;
const LIGHTHOUSE_RUNS = 3;

const log = (...args) => console.error('bench:', ...args);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Whatever happens, never hang: a stuck browser is a failure to measure.
const watchdog = setTimeout(() => {
  console.error('bench: gave up after 40 minutes');
  process.exit(1);
}, 40 * 60 * 1000);
watchdog.unref();

/** Share of all CPUs busy over `ms` (from /proc/stat; null where there is none). */
async function machineBusy(ms) {
  const sample = () => {
    try {
      const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
      const n = fields.map(Number);
      const idle = n[3] + (n[4] ?? 0); // idle + iowait
      return { idle, total: n.reduce((a, b) => a + b, 0) };
    } catch {
      return null;
    }
  };
  const a = sample();
  await sleep(ms);
  const b = sample();
  if (!a || !b || b.total === a.total) return null;
  return 1 - (b.idle - a.idle) / (b.total - a.total);
}

/** Installed before any page script: counts every rAF callback the page's code gets invoked. */
function countAnimationFrames() {
  const native = window.requestAnimationFrame;
  const counter = { calls: 0 };
  Object.defineProperty(window, '__benchRaf', { value: counter });
  window.requestAnimationFrame = function requestAnimationFrame(callback) {
    if (typeof callback !== 'function') return native.call(window, callback); // same TypeError
    return native.call(window, function (time) {
      counter.calls += 1;
      return callback.call(this, time);
    });
  };
}

/** Fails the run if the page reported an uncaught error. */
function assertNoPageErrors(page, what) {
  const errors = page.problems.filter((p) => p.startsWith('pageerror') || p.startsWith('error'));
  if (errors.length) throw new Error(`${what}: ${errors.join('; ')}`);
  for (const warning of page.problems.filter((p) => !errors.includes(p))) log(`${what}: ${warning}`);
}

/**
 * One idle run: rAF callbacks per second on the lesson page over IDLE_SECONDS of wall time.
 * Adds the files the page requested from the server (relative to www/) to `loaded`.
 */
async function idleRun(browser, url, loaded) {
  const page = await openPage(browser);
  try {
    page.on('request', (request) => {
      if (!request.url().startsWith(url)) return; // data: URLs and the like
      const path = decodeURIComponent(new URL(request.url()).pathname).slice(1);
      loaded.add(path === '' || path.endsWith('/') ? `${path}index.html` : path);
    });
    await page.addInitScript(countAnimationFrames);
    await page.goto(url);
    // Mounted (main.js sets window.bucketlab.diagram) or failed (the widget shows .bl-error).
    await page.waitForFunction(
      () => window.bucketlab?.diagram || document.querySelector('#bucket-widget .bl-error'),
      null,
      { polling: 50, timeout: 30_000 },
    );
    const mounted = await page.evaluate(() => Boolean(window.bucketlab?.diagram));
    // Navigation start (time origin 0) to the mark main.js sets once the widget answers clicks.
    const interactive = await page.evaluate(
      () => performance.getEntriesByName('bucketlab:interactive', 'mark')[0]?.startTime ?? null,
    );
    if (!mounted) {
      throw new Error(`lesson page: the diagram did not mount: ${await page.textContent('#bucket-widget')}`);
    }
    // The diagram sits far down the lesson, and it runs no frames while it is off screen: bring it
    // into view, so that the window measures a visible, idle, full bucket.
    await page.locator('#bucket-widget').scrollIntoViewIfNeeded();
    // Give a legitimate mount-time animation up to 1 s to finish; a widget that never settles
    // is measured anyway, and shows up as frames in the window.
    await page
      .waitForFunction(() => !window.bucketlab.diagram.isAnimating, null, { polling: 50, timeout: 1_000 })
      .catch(() => log('idle: the lesson diagram was still animating 1 s after mounting'));
    const result = await page.evaluate(async (ms) => {
      const counter = window.__benchRaf;
      const before = counter.calls;
      const t0 = performance.now();
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { calls: counter.calls - before, seconds: (performance.now() - t0) / 1000 };
    }, IDLE_SECONDS * 1000);
    // Control: the counter must see the diagram's frames once it has something to animate.
    const seen = await page.evaluate(() => {
      window.__benchRafBefore = window.__benchRaf.calls;
      window.bucketlab.diagram.send(1);
      return window.bucketlab.diagram.isAnimating;
    });
    await page
      .waitForFunction(() => window.__benchRaf.calls > window.__benchRafBefore, null, { polling: 50, timeout: 5_000 })
      .catch(() => {
        throw new Error(`idle: the rAF counter saw no frame after a request (diagram animating: ${seen})`);
      });
    assertNoPageErrors(page, 'lesson page');
    if (interactive == null) throw new Error('lesson page: no bucketlab:interactive performance mark');
    return { fps: result.calls / result.seconds, interactive };
  } finally {
    await page.context().close();
  }
}

/** One loaded run: a CDP trace of LOAD_SECONDS on bench-20.html, reduced to per-frame figures. */
async function loadRun(browser, url) {
  const page = await openPage(browser);
  try {
    await page.goto(`${url}bench/bench-20.html`);
    await page.waitForFunction(() => window.bench && (window.bench.ready || window.bench.error), null, {
      polling: 50,
      timeout: 30_000,
    });
    const setup = await page.evaluate(() => ({
      error: window.bench.error,
      count: window.bench.handles.length,
      animating: window.bench.handles.filter((h) => h.isAnimating).length,
    }));
    if (setup.error) throw new Error(`bench-20.html: ${setup.error}`);
    if (setup.count !== LOAD_INSTANCES || setup.animating !== LOAD_INSTANCES) {
      throw new Error(`bench-20.html: ${setup.animating} of ${setup.count} diagrams animating, want ${LOAD_INSTANCES}`);
    }
    // Warm up: wait until WARM_UP_FRAMES frames have been rendered.
    await page.evaluate(
      (n) =>
        new Promise((resolve) => {
          let left = n;
          const tick = () => (--left <= 0 ? resolve() : requestAnimationFrame(tick));
          requestAnimationFrame(tick);
        }),
      WARM_UP_FRAMES,
    );

    const cdp = await page.context().newCDPSession(page);
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const events = [];
    cdp.on('Tracing.dataCollected', ({ value }) => {
      for (const e of value) events.push(e);
    });
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', { categories: TRACE_CATEGORIES.join(','), transferMode: 'ReportEvents' });
    await sleep(LOAD_SECONDS * 1000); // the measurement window itself
    await cdp.send('Tracing.end');
    await complete;

    const still = await page.evaluate(() => window.bench.handles.filter((h) => h.isAnimating).length);
    if (still !== LOAD_INSTANCES) {
      throw new Error(`bench-20.html: only ${still} of ${LOAD_INSTANCES} diagrams were still animating at the end`);
    }
    assertNoPageErrors(page, 'bench-20.html');

    const frames = framesFromTrace(events, frameTree.frame.id);
    if (frames.length < 10) {
      throw new Error(`bench-20.html: only ${frames.length} frames in ${LOAD_SECONDS} s of trace`);
    }
    const busy = frames.map((f) => f.busy);
    return {
      frames: frames.length,
      p95: percentile(busy, 0.95),
      cpuP95: percentile(frames.map((f) => f.cpu), 0.95),
      p50: percentile(busy, 0.5),
      max: Math.max(...busy),
      rafP95: percentile(frames.map((f) => f.raf), 0.95),
      renderP95: percentile(frames.map((f) => f.render - f.raf), 0.95),
      fps: framesPerSecond(frames),
      callbacksPerFrame: median(frames.map((f) => f.rafCount)),
    };
  } finally {
    await page.context().close();
  }
}

// ---- formatting -------------------------------------------------------------------------------

const ms = (v) => `${v.toFixed(2)} ms`;
const kib = (bytes) => `${(bytes / KIB).toFixed(1)} KiB`;
const bytesCell = (bytes) => `${kib(bytes)} (${bytes.toLocaleString('en-US')} B)`;
const mark = (ok) => (ok ? '✓' : '✗');

/** A Markdown table whose columns are also aligned as plain text. */
function table(header, rows) {
  const width = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(width[i])).join(' | ')} |`;
  return [line(header), `|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** Instructions per decision (cachegrind), or one row saying why they were not counted. */
function instructionRows({ coreInstructions: core, governorInstructions: governor }) {
  if (core == null || governor == null) return [['Native decision, instructions (valgrind not run)', 'n/a', '', '']];
  return [
    ['Native decision, core: instructions per decision (cachegrind, same trace)', core.toFixed(2), '', ''],
    ['Native decision, governor check(): instructions per decision', governor.toFixed(2), '', ''],
    ['  ratio core / governor, instructions', `${(core / governor).toFixed(2)}×`, '≤ 1.00×', mark(core <= governor)],
  ];
}

// ---- main -------------------------------------------------------------------------------------

async function main() {
  try {
    measureSizes(WWW);
  } catch (error) {
    throw new Error(`the module is not built (run scripts/build.sh or make bench): ${error.message}`);
  }

  // Other work on the machine (a build, a test run) slows the browser. Wait up to
  // BENCH_QUIET_SECONDS (default 30) for a second in which under 20% of the CPUs are busy;
  // if that never comes, measure anyway and say so next to the table.
  const quietDeadline = Date.now() + 1000 * Number(process.env.BENCH_QUIET_SECONDS ?? 30);
  let busyBefore = await machineBusy(1000);
  if (busyBefore != null && busyBefore > QUIET && Date.now() < quietDeadline) {
    log(`waiting up to ${Math.round((quietDeadline - Date.now()) / 1000)} s for a quiet machine: ${Math.round(busyBefore * 100)}% of the CPUs busy`);
  }
  while (busyBefore != null && busyBefore > QUIET && Date.now() < quietDeadline) {
    busyBefore = await machineBusy(1000);
  }
  const server = await serve({ mounts: BENCH_PAGES });
  let browser;
  try {
    browser = await launch();
    const version = browser.version();

    const usable = await measureUsable(browser, server.url, USABLE_RUNS, log);
    const usableRows = usable.flatMap((row, i) => [
      [`Main control usable: ${row.name} (median of ${USABLE_RUNS} cold loads)`, ms(row.usable), '', ''],
      ...(i === 0 ? [] : [[`  ratio to the bare page`, `${row.ratio.toFixed(2)}×`, `≤ ${USABLE_RATIO_GOAL.toFixed(2)}×`, mark(row.ratio <= USABLE_RATIO_GOAL)]]),
      ...(row.live === null ? [] : [['  its wasm attached (data-live)', ms(row.live), '', '']]),
      [`  first contentful paint${i === 0 ? '' : `: ${row.paintRatio.toFixed(2)}× the bare page's`}`, ms(row.paint), '', ''],
    ]);
    // Issue 14's three figures alone: usable, 20 animating diagrams, the widget's wasm size.
    const loadRuns = async () => {
      const runs = [];
      for (let i = 0; i < LOAD_RUNS; i++) {
        const r = await loadRun(browser, server.url);
        runs.push(r);
        log(
          `load run ${i + 1}/${LOAD_RUNS}: ${r.frames} frames, ${r.fps.toFixed(1)} fps, ` +
            `p50 ${ms(r.p50)}, p95 ${ms(r.p95)} (CPU ${ms(r.cpuP95)}), max ${ms(r.max)}, rAF p95 ${ms(r.rafP95)}`,
        );
      }
      return runs;
    };
    // The 20-diagram rows, for `first-minute` and (with `detail`: where the time goes, and the
    // callbacks) for the full table.
    const loadRows = (runs, detail = false) => {
      const med = (key) => median(runs.map((r) => r[key]));
      return [
        [`${LOAD_INSTANCES} animating diagrams: main-thread time per frame, p95 (median of ${LOAD_RUNS} × ${LOAD_SECONDS} s)`, ms(med('p95')), `≤ ${FRAME_BUDGET_MS} ms`, mark(med('p95') <= FRAME_BUDGET_MS)],
        ['  same, p50', ms(med('p50')), '', ''],
        ['  same in main-thread CPU time, p95', ms(med('cpuP95')), '', ''],
        ...(detail
          ? [
              ['  of which inside rAF callbacks, p95', ms(med('rafP95')), '', ''],
              ['  of which style, layout, paint, commit, p95', ms(med('renderP95')), '', ''],
            ]
          : []),
        ['  frames per second', med('fps').toFixed(1), '', ''],
        // One callback serves every widget on the page (src/view/frames.rs); that all 20 animate
        // is checked before and after the trace.
        ...(detail
          ? [['  rAF callbacks per frame (one serves all the diagrams)', String(med('callbacksPerFrame')), '1', mark(med('callbacksPerFrame') === 1)]]
          : []),
      ];
    };
    if (process.argv[2] === 'usable' || process.argv[2] === 'first-minute') {
      const sizes = measureSizes(WWW);
      const load = process.argv[2] === 'first-minute' ? loadRows(await loadRuns()) : [];
      console.log(table(['measure', 'value', 'goal', '✓/✗'], [
        ...usableRows,
        ...load,
        ['bucketlab_bg.wasm, gzip -9', bytesCell(sizes.wasmGzip), `≤ ${kib(WASM_GZIP_BUDGET)}`, mark(sizes.wasmGzip <= WASM_GZIP_BUDGET)],
      ]));
      return;
    }

    const idle = [];
    const loaded = new Set();
    for (let i = 0; i < IDLE_RUNS; i++) {
      idle.push(await idleRun(browser, server.url, loaded));
      log(`idle run ${i + 1}/${IDLE_RUNS}: ${idle.at(-1).fps.toFixed(1)} rAF callbacks/s, interactive at ${ms(idle.at(-1).interactive)}`);
    }

    const load = await loadRuns();

    // The lesson's transfer: every file the lesson page requested (the same files as LESSON_FILES
    // today); the static list only if, somehow, no request was seen.
    const sizes = measureSizes(WWW, loaded.size ? [...loaded].sort() : LESSON_FILES);
    const missing = LESSON_FILES.filter((f) => !loaded.has(f));
    if (loaded.size && missing.length) log(`the lesson page no longer loads: ${missing.join(', ')}`);

    const idleFps = median(idle.map((r) => r.fps));
    const interactive = median(idle.map((r) => r.interactive));

    log('simulation: wasm vs plain JavaScript (bench/sim.mjs)');
    const sim = measureSimulation({ runs: 5 });
    log('retrying clients: wasm vs plain JavaScript (bench/clients.mjs)');
    const clients = measureClients({ runs: 7 });
    const native = nativeDecisionCost(log);
    const nativeRatio = native.coreNs / native.governorNs;
    // Lighthouse simulates a slow network from what crosses it, so its server compresses text
    // and wasm as the static hosts the site is made for do (the one above does not: on loopback
    // compressing only adds work to the timings it serves).
    const hosted = await serve({ mounts: BENCH_PAGES, compress: true });
    const scores = await lighthouseScores(hosted.url, LIGHTHOUSE_RUNS, log).finally(() => hosted.close());
    const replay = measureReplay({ runs: 3, log });
    const traffic = await measureTraffic({ runs: 3, log });
    const { throughput: tp } = replay;
    const replayRatio = tp.oursMs / tp.goaccessMs;
    const rss = (label) => replay.memory.find((m) => m.label === label);
    const growth = rss('1 GB, 10,000 keys').rssMb / rss('100 MB, 10,000 keys').rssMb;
    const rows = [
      ...usableRows,
      [`Lesson page: navigation to interactive widget (median of ${IDLE_RUNS})`, ms(interactive), '', ''],
      [`Idle lesson page, diagram in view: rAF callbacks/s (${IDLE_SECONDS} s, median of ${IDLE_RUNS})`, idleFps.toFixed(1), '0', mark(idleFps === 0)],
      ...loadRows(load, true),
      ['bucketlab_bg.wasm, raw', bytesCell(sizes.wasmRaw), '', ''],
      ['bucketlab_bg.wasm, gzip -9', bytesCell(sizes.wasmGzip), `≤ ${kib(WASM_GZIP_BUDGET)}`, mark(sizes.wasmGzip <= WASM_GZIP_BUDGET)],
      ['bucketlab_bg.wasm, brotli 11', bytesCell(sizes.wasmBrotli), '', ''],
      ['bucketlab.js (glue), raw', bytesCell(sizes.glueRaw), '', ''],
      ['bucketlab.js (glue), gzip -9', bytesCell(sizes.glueGzip), '', ''],
      [`Lesson page transfer, gzip -9 (the ${sizes.pageFiles.length} files it loads)`, bytesCell(sizes.pageGzip), `≤ ${kib(PAGE_GZIP_BUDGET)}`, mark(sizes.pageGzip <= PAGE_GZIP_BUDGET)],
      [`Native decision, core (median of ${native.runs} × ${native.arrivals.toLocaleString('en-US')} arrivals)`, `${native.coreNs.toFixed(2)} ns`, '', ''],
      ['Native decision, governor 0.10.4 check(), same trace', `${native.governorNs.toFixed(2)} ns`, '', ''],
      ['  ratio core / governor', `${nativeRatio.toFixed(2)}×`, '≤ 1.00×', mark(nativeRatio <= 1)],
      ['  admitted by each (must agree)', `${native.coreAdmitted} / ${native.governorAdmitted}`, 'equal', mark(native.coreAdmitted === native.governorAdmitted)],
      ...instructionRows(native),
      [`Simulation, ${sim.arrivals.toLocaleString('en-US')} arrivals × ${sim.algorithms} algorithms: wasm (Node, median of ${sim.runs})`, ms(sim.wasmMs), '', ''],
      ['Simulation, same in plain JavaScript', ms(sim.plainMs), '', ''],
      ['  ratio wasm / plain JavaScript', `${(sim.wasmMs / sim.plainMs).toFixed(2)}×`, '≤ 1.00×', mark(sim.wasmMs <= sim.plainMs)],
      [`Replay, ${tp.lines.toLocaleString('en-US')} combined lines (${(tp.bytes / 1e6).toFixed(0)} MB, ${tp.keys.toLocaleString('en-US')} keys): bucketlab replay --json (native, median of ${tp.runs})`, ms(tp.oursMs), '', ''],
      [`Replay, same file: goaccess ${replay.goaccess} --log-format=COMBINED -o /dev/null`, ms(tp.goaccessMs), '', ''],
      ['  ratio bucketlab / goaccess', `${replayRatio.toFixed(2)}×`, '< 1.00×', mark(replayRatio < 1)],
      ...replay.memory.map((m) => [
        `Replay peak RSS: ${m.label} (${m.lines.toLocaleString('en-US')} lines)`,
        `${m.rssMb.toFixed(1)} MB`,
        m.label === '1 GB, 10,000 keys' ? '≤ 64 MB' : '',
        m.label === '1 GB, 10,000 keys' ? mark(m.rssMb <= 64) : '',
      ]),
      ['  RSS at 1 GB ÷ RSS at 100 MB, 10,000 keys each', `${growth.toFixed(2)}×`, '≤ 1.10× (keys, not lines)', mark(growth <= 1.1)],
      [`Replay in the lesson's worker, ${traffic.speed.lines.toLocaleString('en-US')} combined lines: wasm first pass (median of 3)`, ms(traffic.speed.wasmFirstPassMs), '', ''],
      ['Replay in a worker, same file: plain-JavaScript parser + bucket', ms(traffic.speed.plainMs), '', ''],
      ['  ratio wasm / plain JavaScript', `${traffic.speed.ratio.toFixed(2)}×`, '≤ 0.50×', mark(traffic.speed.ratio <= 0.5)],
      [`  page JS heap peak while the worker streams a ${(traffic.memory.bytes / 1e6).toFixed(0)} MB log`, `${(traffic.memory.heapPeakBytes / 1e6).toFixed(1)} MB`, '< 150 MB', mark(traffic.memory.heapPeakBytes < 150e6)],
      [`Retrying clients, ${CLIENTS.clients} × ${CLIENTS.successes} successes (${clients.attempts.toLocaleString('en-US')} attempts): wasm, one simulateClients() (median of ${clients.runs})`, ms(clients.wasmMs), '', ''],
      ['Retrying clients, same loop in plain JavaScript', ms(clients.plainMs), '', ''],
      ['  ratio wasm / plain JavaScript', `${(clients.wasmMs / clients.plainMs).toFixed(2)}×`, '≤ 0.50×', mark(clients.wasmMs <= 0.5 * clients.plainMs)],
      ...Object.entries(scores).map(([k, v]) => [`Lighthouse ${k} (mobile, median of ${LIGHTHOUSE_RUNS})`, String(v), '100', mark(v === 100)]),
    ];

    const busy = busyBefore == null ? 'unknown' : `${Math.round(busyBefore * 100)}%`;
    console.log(
      `bucketlab bench: Chromium ${version} (headless), ${os.cpus().length} CPUs, ` +
        `${os.cpus()[0]?.model ?? 'unknown CPU'}, CPUs busy before start: ${busy}`,
    );
    if (busyBefore != null && busyBefore > QUIET) {
      console.log('WARNING: the machine was busy before the run; timings are slower and noisier than on a quiet machine.');
    }
    console.log();
    console.log(table(['measure', 'value', 'goal', '✓/✗'], rows));
    console.log();
    console.log(
      [
        'Methods. Idle: window.requestAnimationFrame wrapped by page.addInitScript; every callback invocation',
        'counted over the window, once the lesson diagram (full bucket) mounted and was scrolled into view;',
        'then one request must make the counter move (control). Per frame: a CDP trace (Tracing.start,',
        `categories ${TRACE_CATEGORIES.slice(1).join(', ')}) of the page's CrRendererMain`,
        'thread; a frame = the top-level task (ThreadControllerImpl::RunTask) running a frame update',
        '(BeginMainThreadFrame, FireAnimationFrame = rAF callbacks, style, layout, paint, commit) plus every',
        "other task until the next one; its time = the tasks' summed wall time (dur), or CPU time (tdur).",
        `Warm-up of ${WARM_UP_FRAMES} frames first; p95 per run, then the median of the runs.`,
        'Interactive: performance mark bucketlab:interactive (set by main.js after mounting) from navigation start.',
        'Usable: bench/usable.mjs, see BENCHMARKS.md ("main control usable"); cold loads, a fresh context each.',
        'Native: cargo bench --bench decision (benches/decision.rs), release build, both limiters on the same',
        '1,000,000 seeded arrivals with explicit time, runs alternated, median ns per decision. Instructions:',
        'valgrind --tool=cachegrind on the same bench deciding the trace twice minus once, per arrival.',
        'Simulation: bench/sim.mjs, the same seeded Poisson trace through every algorithm, outcomes checked equal',
        'first; wasm = one simulate() call (trace generated inside), plain = bench/sim-plain.js; runs alternated.',
        'Replay: bench/replay.mjs, seeded combined logs written to a temporary folder (1,000 requests a',
        'second, clients drawn with popularity 1/rank, each client once first); throughput runs alternate',
        'the two commands on a file already in the page cache, median wall time; peak RSS = GNU time %M.',
        `Lighthouse: ${'12.2.3'} via npm exec, Debian's Chromium headless, default (mobile) settings, the site served gzipped as a static host serves it.`,
        'Sizes: node:zlib, gzip level 9 and brotli quality 11; KiB = 1024 B. Lesson page transfer:',
        `${sizes.pageFiles.join(' + ')}.`,
      ].join('\n'),
    );
  } finally {
    await browser?.close();
    await server.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`bench: could not measure: ${error?.stack ?? error}`);
    process.exit(1);
  },
);
