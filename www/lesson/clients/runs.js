// The section's settings, its presets and the runs behind one view: the chosen policy, the herd
// to compare with, and one row per policy, all from simulateClients.

export const POLICIES = ['hammer', 'fixed', 'retryAfter', 'exponential', 'fullJitter', 'decorrelated'];

/**
 * The herd preset; the jitter preset is the same with `jitter: true`. The clients read Retry-After
 * as HTTP sends it, whole seconds (`header: 'whole'`); `header: 'exact'` (the server's exact wait,
 * which no HTTP header carries) is a "Try this" of its own, labelled as such.
 */
export const HERD = {
  clients: 100, successes: 1, spread: 0, capacity: 10, rate: 10, maxAttempts: 50, seed: 1,
  policy: 'retryAfter', header: 'whole', jitter: false, shared: true,
};
export const PRESETS = { herd: HERD, jitter: { ...HERD, jitter: true } };

/** One backoff for every policy that has one: 1 s doubling up to 30 s. */
const BACKOFF = { base: 1, factor: 2, cap: 30 };

/** simulateClients' options for `state` (its policy replaced by `policy` when given). */
export function options(state, policy = state.policy) {
  const { clients, successes, spread, capacity, rate, maxAttempts, seed, shared } = state;
  const detail = {
    hammer: {},
    fixed: { wait: 1 },
    retryAfter: { header: state.header, jitter: policy === state.policy && state.jitter, ...BACKOFF },
    exponential: BACKOFF,
    fullJitter: BACKOFF,
    decorrelated: BACKOFF,
  }[policy];
  return { clients, successes, spread, capacity, rate, maxAttempts, seed, shared, policy: { name: policy, ...detail } };
}

/**
 * The key of `policy`'s name under `policies.`: Retry-After read as the exact wait has its own,
 * and so has Retry-After with full jitter on top (`jitter`: the row's run has it).
 */
export function policyKey(policy, header, jitter = false) {
  if (policy !== 'retryAfter') return policy;
  return `retryAfter${header === 'exact' ? 'Exact' : ''}${jitter ? 'Jitter' : ''}`;
}

/** Which preset `state` is, if any. */
export function presetOf(state) {
  return Object.keys(PRESETS).find((id) => Object.entries(PRESETS[id]).every(([k, v]) => state[k] === v)) ?? null;
}

/**
 * Every run the view shows for `state`: { main, herd (the herd's run when `state` is the jitter
 * preset), rows: [{ policy, key (its name's, see policyKey), run }] }. Throws simulateClients' error for a bad setting.
 */
export function runAll(simulateClients, state) {
  const main = simulateClients(options(state));
  const herd = presetOf(state) === 'jitter' ? simulateClients(options(HERD)) : null;
  // Each row named for what its run did: the chosen Retry-After with the form's jitter says so.
  const rows = POLICIES.map((policy) => {
    const given = options(state, policy);
    return { policy, key: policyKey(policy, state.header, given.policy.jitter === true), run: simulateClients(given) };
  });
  return { main, herd, rows };
}

/** Figures as the cards and the takeaway show them, rounded once so both say the same. */
export function figures(metrics) {
  const round = (value, digits) => Math.round(value * 10 ** digits) / 10 ** digits;
  return {
    perSuccess: round(metrics.attemptsPerSuccess, 1),
    share: round(metrics.deniedShare * 100, 0),
    peak: metrics.peak,
    peakRetries: metrics.peakRetries,
    gaveUp: metrics.gaveUp,
    p50: round(metrics.finishP50, 1),
    p95: round(metrics.finishP95, 1),
    max: round(metrics.finishMax, 1),
  };
}

/** Attempts per `width`-second bin from 0 to `end`: { firsts, retries } counts. */
export function bins(run, width, end) {
  const count = Math.max(1, Math.ceil(end / width));
  const firsts = new Uint32Array(count);
  const retries = new Uint32Array(count);
  for (let i = 0; i < run.times.length; i++) {
    const bin = Math.floor(run.times[i] / width);
    if (bin >= count) break;
    (run.retries[i] ? retries : firsts)[bin]++;
  }
  return { firsts, retries, width };
}
