// The several-servers simulation, pure: a client's bursts reach N app servers through a round-robin
// load balancer; each server asks either its own token bucket ("local") or one bucket that all of
// them share ("shared", what a store such as Redis gives). The buckets are the core's, from the
// wasm module; time is explicit (bursts happen at `now`, steps move it), so a replay of the same
// actions always gives the same decisions.

import { checkOneOf } from '../checks.js';

/** Where a client's bucket lives. */
export const MODES = ['local', 'shared'];

/**
 * Replays `actions` ({ type: 'burst', size } or { type: 'step', seconds }) from empty history.
 * Returns every request in arrival order ({ server, now, allowed }), where each burst starts
 * ({ index, now }), the buckets' tokens at the end, the clock, and the admitted count.
 */
export function simulate(TokenBucket, { capacity, refillRate, servers, mode, actions }) {
  checkOneOf('mode', mode, MODES);
  const buckets = Array.from({ length: mode === 'shared' ? 1 : servers },
    () => new TokenBucket({ capacity, refillRate }));
  const requests = [];
  const bursts = [];
  let now = 0;
  try {
    for (const action of actions) {
      if (action.type === 'step') {
        now += action.seconds;
        continue;
      }
      bursts.push({ index: requests.length, now });
      for (let i = 0; i < action.size; i++) {
        // Round-robin: the balancer knows nothing of buckets, it just takes turns.
        const server = requests.length % servers;
        const bucket = buckets[mode === 'shared' ? 0 : server];
        requests.push({ server, now, allowed: bucket.tryAcquireAt(1, now).allowed });
      }
    }
    return {
      now,
      requests,
      bursts,
      tokens: buckets.map((bucket) => bucket.tokensAt(now)),
      admitted: requests.filter((request) => request.allowed).length,
    };
  } finally {
    // The buckets live in wasm memory: release them, the result is plain data.
    for (const bucket of buckets) bucket.free();
  }
}
