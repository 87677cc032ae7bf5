// The retrying clients' run (src/limiter/clients/) in plain JavaScript, for bench/clients.mjs: the
// same event loop, token bucket arithmetic and outputs, so its attempts match the wasm ones bit for
// bit. Only the policies without random draws are here (hammer, fixed, retryAfter without jitter,
// exponential): the jittered ones draw from Rust's fastrand, whose 128-bit multiply has no cheap
// JavaScript equivalent, and a slow port would flatter the wasm side.

const TOKEN_SLACK = 1e-12;
const timeSlack = (now) => Math.max(1e-9, Math.abs(now) * 4 * Number.EPSILON);

/** The waits of the deterministic policies: (k, retryAfter) → seconds. */
function waitRule(policy) {
  const { name, wait = 1, base = 1, factor = 2, cap = 30, header = 'whole', jitter = false } = policy;
  if (name === 'hammer') return () => 0;
  if (name === 'fixed') return () => wait;
  if (name === 'retryAfter' && !jitter) {
    return header === 'exact' ? (k, told) => told : (k, told) => Math.max(1, Math.ceil(told));
  }
  if (name === 'exponential') return (k) => Math.min(base * Math.pow(factor, k), cap);
  throw new Error(`bench/clients-plain.js has no random policies; got ${name}`);
}

/** A binary min-heap of (time, order, client) in parallel typed arrays. */
function makeQueue(size) {
  const at = new Float64Array(size);
  const order = new Float64Array(size);
  const who = new Uint16Array(size);
  let n = 0;
  const less = (i, j) => at[i] < at[j] || (at[i] === at[j] && order[i] < order[j]);
  const swap = (i, j) => {
    const a = at[i];
    at[i] = at[j];
    at[j] = a;
    const o = order[i];
    order[i] = order[j];
    order[j] = o;
    const w = who[i];
    who[i] = who[j];
    who[j] = w;
  };
  return {
    get size() { return n; },
    push(t, o, c) {
      let i = n++;
      at[i] = t; order[i] = o; who[i] = c;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!less(i, p)) break;
        swap(i, p);
        i = p;
      }
    },
    /** Removes the earliest; its fields are left in top. */
    pop(top) {
      top.at = at[0]; top.client = who[0];
      n--;
      at[0] = at[n]; order[0] = order[n]; who[0] = who[n];
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < n && less(l, m)) m = l;
        if (r < n && less(r, m)) m = r;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    },
  };
}

/** A token bucket as src/limiter/bucket.rs decides cost-1 requests: returns 0 when admitted, else the exact retry-after. */
function makeBuckets(count, capacity, rate) {
  const tokens = new Float64Array(count).fill(capacity);
  const last = new Float64Array(count).fill(NaN);
  return function acquire(b, now) {
    const previous = last[b];
    let available = tokens[b];
    if (previous === previous && now > previous) {
      const t = available + (now - previous) * rate;
      available = t < capacity ? t : capacity;
    }
    tokens[b] = available;
    if (!(previous > now)) last[b] = now;
    if (available + capacity * TOKEN_SLACK + rate * timeSlack(now) >= 1) {
      tokens[b] = available - 1; // may owe the slack's hair, as the core does
      return 0;
    }
    const lag = Math.max(last[b] - now, 0);
    return lag + (1 - available) / rate;
  };
}

/** Runs the clients; returns { times, clients, outcomes, next } like simulateClients. */
export function simulateClientsPlain({ clients, successes, spread = 0, capacity, rate, shared = true, policy, maxAttempts }) {
  const wait = waitRule(policy);
  const acquire = makeBuckets(shared ? 1 : clients, capacity, rate);
  const wanted = new Uint32Array(clients).fill(successes);
  const tries = new Uint32Array(clients);
  const queue = makeQueue(clients + 1);
  let capacityOut = clients * successes * 2;
  let times = new Float64Array(capacityOut);
  let who = new Uint16Array(capacityOut);
  let outcomes = new Uint8Array(capacityOut);
  let next = new Float64Array(capacityOut);
  let order = 0;
  for (let i = 0; i < clients; i++) queue.push((i * spread) / clients, order++, i);
  const top = { at: 0, client: 0 };
  let n = 0;
  while (queue.size > 0) {
    queue.pop(top);
    const now = top.at;
    const c = top.client;
    tries[c]++;
    const told = acquire(shared ? 0 : c, now);
    let code;
    let then = NaN;
    if (told === 0) {
      code = 0;
      tries[c] = 0;
      if (--wanted[c] > 0) then = now;
    } else if (tries[c] < maxAttempts) {
      code = 1;
      then = now + wait(tries[c] - 1, told);
    } else {
      code = 2;
    }
    if (then === then) queue.push(then, order++, c);
    if (n === capacityOut) {
      capacityOut *= 2;
      const grow = (a) => { const b = new a.constructor(capacityOut); b.set(a); return b; };
      times = grow(times); who = grow(who); outcomes = grow(outcomes); next = grow(next);
    }
    times[n] = now; who[n] = c; outcomes[n] = code; next[n] = then;
    n++;
  }
  return { times: times.subarray(0, n), clients: who.subarray(0, n), outcomes: outcomes.subarray(0, n), next: next.subarray(0, n) };
}
