// Where a frame's main-thread time goes with 20 animating diagrams: a CDP trace of
// bench/pages/bench-20.html summed by trace event name (self time of the renderer main thread),
// per frame.
// Run alone: `node bench/breakdown.mjs` (after scripts/build.sh). A diagnostic aid, not a budget.
import { serve, launch, openPage } from '../tests/e2e/harness.mjs';
import { findMainThread, framesFromTrace } from './frames.mjs';

const SECONDS = Number(process.env.SECONDS_TRACED ?? 3);
const server = await serve({ mounts: { 'bench/': new URL('./pages/', import.meta.url).pathname } });
const browser = await launch();
try {
  const page = await openPage(browser);
  await page.goto(`${server.url}bench/bench-20.html`);
  await page.waitForFunction(() => window.bench && (window.bench.ready || window.bench.error));
  // Experiments: BREAKDOWN_CSS="…" adds a style sheet first (e.g. to hide one part of the widget).
  // Through the CSSOM: the page's CSP allows no inline <style>.
  if (process.env.BREAKDOWN_CSS) {
    await page.evaluate((css) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    }, process.env.BREAKDOWN_CSS);
  }
  // BREAKDOWN_JS="…" runs a function body in the page after that (e.g. to rebuild one part).
  if (process.env.BREAKDOWN_JS) await page.evaluate(process.env.BREAKDOWN_JS);
  await page.evaluate(() => new Promise((r) => { let n = 90; const t = () => (--n ? requestAnimationFrame(t) : r()); requestAnimationFrame(t); }));
  const cdp = await page.context().newCDPSession(page);
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { categories: '-*,toplevel,devtools.timeline,disabled-by-default-devtools.timeline.frame,blink,cc,v8.execute', transferMode: 'ReportEvents' });
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  await cdp.send('Tracing.end');
  await done;
  const { pid, tid } = findMainThread(events, frameTree.frame.id);
  const mine = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  const frames = mine.filter((e) => e.name === 'FireAnimationFrame').length;
  // Self time: an event's duration minus its direct children's.
  const stack = [];
  const self = new Map();
  const cpuSelf = new Map();
  for (const e of mine) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) { parent.child += e.dur ?? 0; parent.tchild += e.tdur ?? 0; }
    stack.push({ ...e, child: 0, tchild: 0, ref: e });
    e._node = stack.at(-1);
  }
  // BREAKDOWN_SLOW=0.9: only the frames at or above that quantile of main-thread time (where the
  // p95 comes from), self time per such frame.
  let counted = frames;
  let inScope = () => true;
  if (process.env.BREAKDOWN_SLOW) {
    const all = framesFromTrace(events, frameTree.frame.id);
    const cut = [...all].map((f) => f.busy).sort((a, b) => a - b)[Math.floor(Number(process.env.BREAKDOWN_SLOW) * all.length)];
    const spans = all.map((f, i) => [f, all[i + 1]?.start ?? Infinity]).filter(([f]) => f.busy >= cut);
    counted = spans.length;
    inScope = (e) => spans.some(([f, end]) => e.ts / 1000 >= f.start && e.ts / 1000 < end);
    console.log(`${counted} frames at or above ${cut.toFixed(2)} ms`);
  }
  for (const e of mine) {
    if (!inScope(e)) continue;
    const n = e._node;
    self.set(e.name, (self.get(e.name) ?? 0) + (e.dur ?? 0) - n.child);
    cpuSelf.set(e.name, (cpuSelf.get(e.name) ?? 0) + (e.tdur ?? 0) - n.tchild);
  }
  const busy = framesFromTrace(events, frameTree.frame.id).map((f) => f.busy).sort((a, b) => a - b);
  const at = (q) => busy[Math.min(busy.length - 1, Math.floor(q * busy.length))].toFixed(2);
  console.log(`main-thread time per frame: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms`);
  console.log(`${frames.toFixed(0)} frames in ${SECONDS} s; self time per frame (ms), wall / cpu:`);
  if (process.env.BREAKDOWN_COUNT) {
    const re = new RegExp(process.env.BREAKDOWN_COUNT);
    const counts = new Map();
    for (const e of mine) if (re.test(e.name)) counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
    for (const [name, n] of counts) console.log(`${(n / frames).toFixed(2).padStart(8)} a frame  ${name}`);
  }
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${(us / counted / 1000).toFixed(3).padStart(8)} ${(cpuSelf.get(name) / counted / 1000).toFixed(3).padStart(8)}  ${name}`);
  }
} finally {
  await browser.close();
  await server.close();
}
