// The lab's seven limiters in plain JavaScript, for bench/sim.mjs: the same rules, tolerances and
// outputs as src/limiter/lab/ (so the outcomes match the wasm ones bit for bit on the same trace),
// written for speed: typed arrays, ring buffers, no per-request objects, one pass per algorithm.

const EPSILON = Number.EPSILON;
const timeSlack = (now) => Math.max(1e-9, Math.abs(now) * 4 * EPSILON);

/** Poisson arrivals at `rate` per second in [0, duration), from a seeded mulberry32 generator. */
export function poissonArrivals(rate, duration, seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  let times = new Float64Array(Math.ceil(rate * duration * 1.1) + 16);
  let n = 0;
  for (let t = -Math.log(1 - next()) / rate; t < duration; t += -Math.log(1 - next()) / rate) {
    if (n === times.length) {
      const grown = new Float64Array(times.length * 2);
      grown.set(times);
      times = grown;
    }
    times[n++] = t;
  }
  return times.subarray(0, n);
}

// Each limiter: make(limit, window) → { decide(now) → delay (≥ 0) or -1 when denied, load(now) }.
const LIMITERS = {
  fixedWindow(limit, w) {
    let index = NaN;
    let count = 0;
    let latest = -Infinity;
    return {
      decide(now) {
        if (now < latest) now = latest;
        latest = now;
        const k = Math.floor(now / w);
        if (k !== index) { index = k; count = 0; }
        if (count < limit) { count++; return 0; }
        return -1;
      },
      load(now) {
        return Math.floor(Math.max(now, latest) / w) === index ? count : 0;
      },
    };
  },
  slidingLog(limit, w) {
    const ring = new Float64Array(limit);
    let head = 0;
    let size = 0;
    let latest = -Infinity;
    return {
      decide(now) {
        if (now < latest) now = latest;
        latest = now;
        while (size > 0 && !(ring[head] + w > now)) { head = (head + 1) % limit; size--; }
        if (size >= limit) return -1;
        ring[(head + size) % limit] = now;
        size++;
        return 0;
      },
      load(now) {
        now = Math.max(now, latest);
        let n = 0;
        for (let i = 0; i < size; i++) if (ring[(head + i) % limit] + w > now) n++;
        return n;
      },
    };
  },
  slidingCounter(limit, w) {
    let index = NaN;
    let previous = 0;
    let current = 0;
    let latest = -Infinity;
    const estimate = (now) => {
      const k = Math.floor(now / w);
      let p = 0;
      let c = 0;
      if (k === index) { p = previous; c = current; } else if (index + 1 === k) { p = current; }
      return p * (1 - (now - k * w) / w) + c;
    };
    return {
      decide(now) {
        if (now < latest) now = latest;
        latest = now;
        const e = estimate(now);
        const k = Math.floor(now / w);
        if (k !== index) {
          previous = index + 1 === k ? current : 0;
          current = 0;
          index = k;
        }
        if (e + 1 <= limit * (1 + 1e-9)) { current++; return 0; }
        return -1;
      },
      load(now) { return estimate(Math.max(now, latest)); },
    };
  },
  leakyQueue(limit, w) {
    const interval = w / limit;
    const ring = new Float64Array(limit);
    let head = 0;
    let size = 0;
    let busy = false;
    let start = 0;
    let count = 0;
    let latest = -Infinity;
    return {
      decide(now) {
        if (now < latest) now = latest;
        latest = now;
        while (size > 0 && ring[head] <= now) { head = (head + 1) % limit; size--; }
        if (size >= limit) return -1;
        if (busy && start + (count + 1) * interval > now) count++;
        else { start = now; count = 0; }
        busy = true;
        const out = start + count * interval;
        if (out > now) {
          ring[(head + size) % limit] = out;
          size++;
          return out - now;
        }
        return 0;
      },
      load(now) {
        now = Math.max(now, latest);
        let n = 0;
        for (let i = 0; i < size; i++) if (ring[(head + i) % limit] > now) n++;
        return n;
      },
    };
  },
  leakyMeter(limit, w) {
    const capacity = limit;
    const rate = limit / w;
    let level = 0;
    let last = NaN; // NaN: not used yet
    const drained = (now) => {
      const elapsed = last === last ? Math.max(now - last, 0) : 0;
      return Math.max(level - elapsed * rate, 0);
    };
    return {
      decide(now) {
        const l = drained(now);
        last = last === last ? Math.max(last, now) : now;
        level = l;
        const slack = capacity * 1e-12 + rate * timeSlack(now);
        if (l + 1 <= capacity + slack) { level = l + 1; return 0; } // over B by the slack's hair, owed
        return -1;
      },
      load: (now) => Math.min(drained(now), capacity),
    };
  },
  gcra(limit, w) {
    const interval = w / limit;
    const tolerance = limit * interval;
    let tat = NaN;
    let latest = -Infinity;
    return {
      decide(now) {
        const at = Math.max(now, latest);
        latest = at;
        const slack = tolerance * 1e-12 + timeSlack(now);
        const start = tat === tat ? Math.max(tat, at) : at;
        const next = start + interval;
        if (next - at <= tolerance + slack) { tat = next; return 0; }
        return -1;
      },
      load(now) {
        now = Math.max(now, latest);
        return tat === tat ? Math.max((tat - now) / interval, 0) : 0;
      },
    };
  },
  tokenBucket(limit, w) {
    const capacity = limit;
    const rate = limit / w;
    let tokens = capacity;
    let last = NaN;
    const refilled = (now) => {
      const elapsed = last === last ? Math.max(now - last, 0) : 0;
      return elapsed === 0 ? tokens : Math.min(capacity, tokens + elapsed * rate);
    };
    return {
      decide(now) {
        const available = refilled(now);
        tokens = available;
        last = last === last ? Math.max(last, now) : now;
        if (available + capacity * 1e-12 + rate * timeSlack(now) >= 1) {
          tokens = available - 1; // may owe the slack's hair
          return 0;
        }
        return -1;
      },
      load(now) { return capacity - Math.max(refilled(now), 0); },
    };
  },
};

export const ALGORITHMS = Object.keys(LIMITERS);

/** The most passes in any [t, t + span), and where that span starts; a time within the slack of a span's end is past it. */
function peak(times, n, span) {
  let best = 0;
  let bestStart = 0;
  let first = 0;
  for (let last = 0; last < n; last++) {
    while (times[first] + span <= times[last] + timeSlack(times[last])) first++;
    if (last - first + 1 > best) { best = last - first + 1; bestStart = times[first]; }
  }
  return [best, bestStart];
}

/** Runs `arrivals` through each algorithm, like the wasm simulate(); same result shape. */
export function simulatePlain({ arrivals, limit, window, duration, samples = 200, algorithms = ALGORITHMS }) {
  const n = arrivals.length;
  const sampleInterval = duration / (samples - 1);
  const passed = new Float64Array(n);
  const lanes = algorithms.map((algorithm) => {
    const limiter = LIMITERS[algorithm](limit, window);
    const outcomes = new Uint8Array(n);
    const delays = new Float64Array(n);
    const loads = new Float64Array(samples);
    let sampled = 0;
    let admitted = 0;
    let delayed = 0;
    let denied = 0;
    let passes = 0;
    for (let i = 0; i < n; i++) {
      const now = arrivals[i];
      while (sampled < samples && sampled * sampleInterval <= now) {
        loads[sampled] = limiter.load(sampled * sampleInterval);
        sampled++;
      }
      const delay = limiter.decide(now);
      if (delay < 0) { outcomes[i] = 2; denied++; continue; }
      if (delay > 0) { outcomes[i] = 1; delays[i] = delay; delayed++; } else admitted++;
      passed[passes++] = now + delay;
    }
    for (; sampled < samples; sampled++) loads[sampled] = limiter.load(sampled * sampleInterval);
    const [most, peakStart] = peak(passed, passes, window);
    return { algorithm, admitted, delayed, denied, peak: most, peakStart, outcomes, delays, samples: loads };
  });
  return { arrivals, duration, limit, window, sampleInterval, lanes };
}
