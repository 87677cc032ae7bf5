// The recap: one check per part of the lesson, placed in that part's item of the list the page
// already shows. Answers that are numbers come from the core (TokenBucket, simulate,
// simulateFlood) on the question's own numbers, and so do the numbers of each answer's "why",
// shown under the verdict; the boxes are the clients section's questions.
import { el } from '../lab/dom.js';
import { renderQuiz } from '../clients/quiz.js';

/** The bucket the whole lesson starts from (#bucket-widget's B and r), asked about in the first check. */
export const LESSON_BUCKET = { capacity: 5, refillRate: 1 };
/** Requests sent at once in that check: more than B, so the extra ones are refused. */
const BURST = 7;
/** The bucket that refuses a request of cost COST in the Retry-After check: it lacks COST − tokens. */
const LOW_BUCKET = { capacity: 5, refillRate: 2, tokens: 0.5 };
const COST = 1;

const admittedOf = (outcomes) => Array.from(outcomes).filter((o) => o !== 2).length;

/** A question whose options are numbers, the answer among them; `why` works the answer out. */
function numeric(t, id, text, answer, others, why) {
  const options = [...new Set([answer, ...others])].sort((a, b) => a - b).map((n) => t.number(n));
  return { id, text, options, answer: t.number(answer), why };
}

/** A question whose options are words from the table (`quiz.<group>.<key>`); `why` explains the answer. */
function worded(t, id, text, group, keys, answer, why) {
  return { id, text, options: keys.map((k) => t(`quiz.${group}.${k}`)), answer: t(`quiz.${group}.${answer}`), why };
}

/**
 * How many of `count` requests (cost 1) at one instant pass, spread in turn over `buckets`: one
 * bucket, or one per server. The buckets are freed.
 */
function passedAtOnce(buckets, count) {
  const passed = Array.from({ length: count }, (_, i) => buckets[i % buckets.length].tryAcquireAt(1, 0)).filter((d) => d.allowed).length;
  for (const bucket of buckets) bucket.free();
  return passed;
}

/** The seven questions, in the order of the recap's parts. */
function recapQuestions({ simulate, simulateFlood, TokenBucket }, t) {
  const burst = passedAtOnce([new TokenBucket(LESSON_BUCKET)], BURST);

  const edge = simulate({ algorithms: ['fixedWindow'], limit: 10, window: 1, duration: 2, traffic: { pattern: 'windowEdge' } });
  const edgePassed = admittedOf(edge.lanes[0].outcomes);

  const spread = passedAtOnce(Array.from({ length: 3 }, () => new TokenBucket({ capacity: 5, refillRate: 1 })), 20);
  // What one bucket shared by the servers lets through of the same burst, for the "why".
  const sharedPassed = passedAtOnce([new TokenBucket({ capacity: 5, refillRate: 1 })], 20);

  const low = new TokenBucket(LOW_BUCKET);
  const wait = low.tryAcquireAt(COST, 0).retryAfter;
  const retryAfter = Math.max(1, Math.ceil(wait));
  low.free();

  const flood = simulateFlood({ attackers: 10000, attackRate: 1, layers: { edge: false, perIp: true, global: false }, seed: 1 });
  const ipsLimited = flood.summary.attackersLimited;

  return [
    numeric(t, 'bucket', t('quiz.bucket', { capacity: LESSON_BUCKET.capacity, rate: LESSON_BUCKET.refillRate, burst: BURST }), burst, [BURST, LESSON_BUCKET.refillRate],
      t('quiz.why.bucket', { capacity: LESSON_BUCKET.capacity, burst: BURST, passed: burst, count: BURST - burst })),
    numeric(t, 'window', t('quiz.window', { limit: 10 }), edgePassed, [10, 15],
      t('quiz.why.window', { limit: 10, passed: edgePassed, ratio: edgePassed / 10 })),
    numeric(t, 'servers', t('quiz.servers', { servers: 3, capacity: 5, burst: 20 }), spread, [5, 20],
      t('quiz.why.servers', { capacity: 5, burst: 20, share: Math.round(20 / 3), passed: spread, shared: sharedPassed, ratio: spread / sharedPassed })),
    numeric(t, 'retryAfter', t('quiz.retryAfter', { count: LOW_BUCKET.tokens, rate: LOW_BUCKET.refillRate }), retryAfter, [0, 2],
      t('quiz.why.retryAfter', { cost: COST, tokens: LOW_BUCKET.tokens, count: COST - LOW_BUCKET.tokens, rate: LOW_BUCKET.refillRate, wait, answer: retryAfter })),
    worded(t, 'clients', t('quiz.clients'), 'clientsOptions', ['sooner', 'jitter', 'bigger'], 'jitter', t('quiz.why.clients')),
    numeric(t, 'flood', t('quiz.flood', { ips: 10000, rate: 1, allowed: flood.ipRate }), ipsLimited, [100, 10000],
      t('quiz.why.flood', { rate: 1, allowed: flood.ipRate, count: ipsLimited, peak: flood.summary.originPeak, capacity: flood.originCapacity })),
    worded(t, 'limits', t('quiz.limits'), 'limitsOptions', ['user', 'ip', 'endpoint'], 'ip', t('quiz.why.limits')),
  ];
}

/** Puts each question in its part's item of `list` (the page's `ol`); returns the questions. */
export function renderRecap(list, tools, t) {
  const questions = recapQuestions(tools, t);
  const parts = [...list.querySelectorAll('.df-recap-part')];
  parts.forEach((part, i) => {
    part.querySelector('.df-recap-check')?.remove();
    const box = el('div', { class: 'df-recap-check quiz' });
    renderQuiz(box, [questions[i]], t);
    part.append(box);
  });
  return questions;
}
