// Turns a Chrome trace (the events of CDP `Tracing.dataCollected`) into per-frame main-thread
// times for one page. Pure functions, no browser: bench/run.mjs records, this file measures.
//
// The method, in Chrome's own terms:
// - the page's main thread is the `CrRendererMain` thread whose `FireAnimationFrame` events name
//   the page's main frame (its CDP frame id);
// - its work is split into top-level tasks (`ThreadControllerImpl::RunTask`, category `toplevel`);
// - a frame starts with the task that runs the main-frame update: the one that contains a
//   `BeginMainThreadFrame` or a `FireAnimationFrame` (the rAF callbacks, then style, layout,
//   pre-paint, paint, layerize and commit all run inside that same task);
// - a frame's main-thread time is the summed duration of every top-level task that starts
//   between its update task and the next frame's (so timers, microtasks and GC between frames
//   count too). Frames at the edges of the trace, not closed by a next frame, are dropped.
//   That is wall time (`dur`); the same sum over thread time (`tdur`) gives the CPU time.

/** Trace categories this analysis needs (cheap ones: no per-callback counters or stacks). */
export const TRACE_CATEGORIES = [
  '-*',
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
];

const TASK = 'ThreadControllerImpl::RunTask';
const FRAME_MARKS = new Set(['BeginMainThreadFrame', 'FireAnimationFrame']);

/**
 * Finds { pid, tid } of the thread that fires the animation frames of the frame `frameId`
 * (CDP `Page.getFrameTree().frameTree.frame.id`): the page's main thread, `CrRendererMain`.
 */
export function findMainThread(events, frameId) {
  const fired = events.find((e) => e.name === 'FireAnimationFrame' && e.args?.data?.frame === frameId);
  if (!fired) throw new Error(`trace: no animation frame fired for frame ${frameId}`);
  const { pid, tid } = fired;
  const name = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.tid === tid);
  if (name && name.args?.name !== 'CrRendererMain') {
    throw new Error(`trace: frame ${frameId} animates on thread "${name.args?.name}", not CrRendererMain`);
  }
  return { pid, tid };
}

/**
 * Per-frame figures, in milliseconds, for the page's main thread:
 * `[{ start, busy, cpu, render, raf, rafCount }]` where `busy` is the wall time of all main-thread
 * tasks of the frame, `cpu` the CPU time the thread got during them (the trace's `tdur`, which
 * leaves out time the thread waited for a core), `render` the wall time of the update task alone
 * and `raf` the wall time inside rAF callbacks (FireAnimationFrame).
 */
export function framesFromTrace(events, frameId) {
  const { pid, tid } = findMainThread(events, frameId);
  const mine = events.filter((e) => e.pid === pid && e.tid === tid);

  // Outermost top-level tasks, in time order (a nested run loop would nest tasks).
  const tasks = [];
  for (const e of mine.filter((e) => e.ph === 'X' && e.name === TASK).sort((a, b) => a.ts - b.ts)) {
    const last = tasks.at(-1);
    if (last && e.ts < last.ts + last.dur) continue;
    tasks.push({ ts: e.ts, dur: e.dur ?? 0, tdur: e.tdur ?? e.dur ?? 0, frame: false, raf: 0, rafCount: 0 });
  }
  if (tasks.length === 0) throw new Error('trace: no top-level tasks on the main thread (category "toplevel" missing?)');

  // The task containing time `ts`, by binary search.
  const taskAt = (ts) => {
    let lo = 0;
    let hi = tasks.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (tasks[mid].ts > ts) hi = mid - 1;
      else if (ts > tasks[mid].ts + tasks[mid].dur) lo = mid + 1;
      else return tasks[mid];
    }
    return null;
  };
  for (const e of mine) {
    if (!FRAME_MARKS.has(e.name)) continue;
    const task = taskAt(e.ts);
    if (!task) continue; // began before the trace did
    task.frame = true;
    if (e.name === 'FireAnimationFrame' && e.ph === 'X') {
      task.raf += e.dur ?? 0;
      task.rafCount += 1;
    }
  }

  const frames = [];
  let current = null;
  for (const task of tasks) {
    if (task.frame) {
      if (current) frames.push(current);
      current = {
        start: task.ts / 1000,
        busy: 0,
        cpu: 0,
        render: task.dur / 1000,
        raf: task.raf / 1000,
        rafCount: task.rafCount,
      };
    }
    if (current) {
      current.busy += task.dur / 1000;
      current.cpu += task.tdur / 1000;
    }
  }
  // `current`, the last frame, is left out: nothing after it in the trace closes it.
  return frames;
}

/** Frames per second over the frames' start times. */
export function framesPerSecond(frames) {
  if (frames.length < 2) return 0;
  return ((frames.length - 1) * 1000) / (frames.at(-1).start - frames[0].start);
}

/** Nearest-rank percentile (p in 0..1) of a list of numbers. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** Median of a list of numbers (mean of the middle two for an even count). */
export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
