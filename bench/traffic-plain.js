// The benchmark's peer for the replay worker: a plain-JavaScript module worker that reads the same
// File as a stream, decodes it, cuts lines, parses `combined` lines with a regular expression
// (client, [time], and a trailing $msec when present) and runs a token bucket per client. Only
// what the wasm worker's first pass must do, without its burst–rate curves.
// In: { file, capacity, refillRate }. Out: { lines, requests, malformed, keys, limited, ms }.
const LINE = /^(\S+) \S+ \S+ \[(\d{2})\/(\w{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})\] "(?:[^"\\]|\\.)*" \d{3} (?:\d+|-)(?: "(?:[^"\\]|\\.)*" "(?:[^"\\]|\\.)*")?(?: (\d+\.\d+))?$/;
const MONTHS = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };

self.onmessage = async ({ data: { file, capacity, refillRate } }) => {
  const start = performance.now();
  const buckets = new Map();
  let lines = 0;
  let requests = 0;
  let malformed = 0;
  let limited = 0;
  const take = (line) => {
    lines += 1;
    if (line.length === 0) return;
    const m = LINE.exec(line);
    if (!m) { malformed += 1; return; }
    let time = Date.UTC(+m[4], MONTHS[m[3]], +m[2], +m[5], +m[6], +m[7]) / 1000;
    time -= (m[8] === '-' ? -1 : 1) * (+m[9] * 3600 + +m[10] * 60);
    if (m[11] !== undefined && Math.abs(+m[11] - time) < 1) time = +m[11];
    requests += 1;
    let b = buckets.get(m[1]);
    if (!b) buckets.set(m[1], (b = { tokens: capacity, last: time }));
    if (time > b.last) {
      b.tokens = Math.min(capacity, b.tokens + (time - b.last) * refillRate);
      b.last = time;
    }
    if (b.tokens >= 1) b.tokens -= 1;
    else limited += 1;
  };
  const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const parts = (rest + value).split('\n');
    rest = parts.pop();
    for (const line of parts) take(line.endsWith('\r') ? line.slice(0, -1) : line);
  }
  if (rest) take(rest);
  self.postMessage({ lines, requests, malformed, keys: buckets.size, limited, ms: performance.now() - start });
};
