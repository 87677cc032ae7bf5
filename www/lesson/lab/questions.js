// The quick check's questions. Numbers are drawn from a seed. The first five answers come from the
// core: the bucket's live token count from TokenBucket, the verdicts from simulate() on the
// question's own trace, which the quiz then plays out. The last three are facts about the
// algorithms, written here: GCRA's parameters, then two of FACT_QUESTIONS, in turn by seed.

/** A small seeded generator (mulberry32), for picking numbers and shuffling options. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (rand, list) => list[Math.floor(rand() * list.length)];

function shuffle(rand, list) {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Distinct numeric options around the right one, shuffled. */
function numberOptions(rand, t, answer, others) {
  const values = [...new Set([answer, ...others].filter((v) => Number.isInteger(v) && v >= 0))].slice(0, 4);
  return shuffle(rand, values.map((v) => ({ value: String(v), label: t.number(v) })));
}

const repeat = (time, count) => Array.from({ length: count }, () => time);
const passed = (outcomes, from) => Array.from(outcomes.slice(from)).filter((o) => o !== 2).length;

/** The questions about facts, worded the same in every set: id → [answer, the algorithms offered]. */
const FACT_QUESTIONS = {
  memory: ['slidingLog', ['slidingLog', 'fixedWindow', 'slidingCounter', 'tokenBucket']],
  smooth: ['leakyQueue', ['leakyQueue', 'tokenBucket', 'gcra', 'slidingLog']],
  tat: ['gcra', ['gcra', 'tokenBucket', 'fixedWindow', 'slidingCounter']],
  estimate: ['slidingCounter', ['slidingCounter', 'slidingLog', 'fixedWindow', 'leakyQueue']],
};
export const FACTS = Object.keys(FACT_QUESTIONS);

/**
 * The two facts a set asks, in turn by seed. The first set asks about the memory and the smooth
 * output, as it always has (answers kept from before still fit it); each pair's complement follows it.
 */
const FACT_PAIRS = [['memory', 'smooth'], ['tat', 'estimate'], ['memory', 'tat'], ['smooth', 'estimate'], ['memory', 'estimate'], ['smooth', 'tat']];

/** How many seeds "New questions" tries for a set that repeats none of the last one's. */
const FRESH_TRIES = 64;

/**
 * The seed after `seed` whose questions (`questionsFor(seed)`) repeat none of `shown`'s, so that a
 * retake is not half the last set again; failing that within FRESH_TRIES, one that repeats only
 * facts; failing that, the next seed.
 */
export function freshSeed(seed, shown, questionsFor) {
  const repeats = (questions, asked) => questions.some((q) => asked.has(q.prompt));
  const all = new Set(shown.map((q) => q.prompt));
  const drawn = new Set(shown.filter((q) => !FACTS.includes(q.id)).map((q) => q.prompt));
  let fallback = seed + 1;
  for (let next = seed + 1; next <= seed + FRESH_TRIES; next++) {
    const questions = questionsFor(next);
    if (!repeats(questions, all)) return next;
    if (fallback === seed + 1 && !repeats(questions, drawn)) fallback = next;
  }
  return fallback;
}

/**
 * The questions for `seed`: [{ id, prompt, options: [{ value, label }], answer, explain,
 * playback?: { algorithms, limit, window, duration, timestamps, focusFrom } }].
 */
export function makeQuestions({ simulate, TokenBucket, t, seed }) {
  const rand = random(seed);
  const run = (algorithms, limit, duration, timestamps) =>
    simulate({ algorithms, limit, window: 1, duration, samples: 100, traffic: { pattern: 'pasted', timestamps } });
  const questions = [];

  {
    // Token bucket: the live token count after emptying, then a group arriving a little later.
    // [4, 0.025]: 0.1 token now, at most 0.9 when the group arrives: none pass.
    const [capacity, idle] = pick(rand, [[5, 0.5], [4, 0.3], [8, 0.3], [10, 0.25], [4, 0.025]]);
    const dt = pick(rand, [0.1, 0.2]);
    const count = pick(rand, [2, 3, 4]);
    const bucket = new TokenBucket({ capacity, refillRate: capacity });
    for (let i = 0; i < capacity; i++) bucket.tryAcquireAt(1, 0);
    const tokens = bucket.tokensAt(idle);
    const after = bucket.tokensAt(idle + dt);
    bucket.free();
    const at = idle + dt;
    const timestamps = [...repeat(0, capacity), ...repeat(at, count)];
    const got = passed(run(['tokenBucket'], capacity, 2, timestamps).lanes[0].outcomes, capacity);
    const answer = got === count ? 'all' : got === 0 ? 'none' : 'some';
    questions.push({
      id: 'tokens',
      prompt: t('quiz.tokens.prompt', { capacity, rate: capacity, count: tokens, dt, requests: count }),
      options: [
        { value: 'all', label: t('quiz.allPass') },
        { value: 'some', label: t('quiz.somePass') },
        { value: 'none', label: t('quiz.nonePass') },
      ],
      answer,
      explain: t('quiz.tokens.explain', { dt, rate: capacity, added: capacity * dt, after, count: got, requests: count }),
      playback: { algorithms: ['tokenBucket', 'gcra'], limit: capacity, duration: 2, timestamps, focusFrom: capacity },
    });
  }

  {
    // The window-edge attack against the fixed window, then against the log.
    const limit = pick(rand, [4, 5, 6, 8, 10]);
    const attack = simulate({ algorithms: ['fixedWindow', 'slidingLog'], limit, window: 1, duration: 2, traffic: { pattern: 'windowEdge' } });
    const timestamps = Array.from(attack.arrivals);
    const [fixed, log] = attack.lanes.map((l) => passed(l.outcomes, 0));
    const playback = { algorithms: ['fixedWindow', 'slidingLog'], limit, duration: 2, timestamps, focusFrom: 0 };
    questions.push({
      id: 'edge',
      prompt: t('quiz.edge.prompt', { limit }),
      options: numberOptions(rand, t, fixed, [limit, limit + 1, 2 * limit, limit / 2]),
      answer: String(fixed),
      explain: t('quiz.edge.explain', { passed: fixed, ratio: fixed / limit }),
      playback,
    });
    questions.push({
      id: 'log',
      prompt: t('quiz.log.prompt', { limit }),
      options: numberOptions(rand, t, log, [2 * limit, limit - 1, limit + 1, limit]),
      answer: String(log),
      explain: t('quiz.log.explain', { passed: log }),
      playback,
    });
  }

  {
    // Sliding window counter: the previous window's weight after a fraction of the current one.
    const limit = 10;
    const previous = pick(rand, [4, 6, 8]);
    const fraction = pick(rand, [0.25, 0.5, 0.75]);
    const timestamps = [...repeat(0.5, previous), ...repeat(1 + fraction, limit)];
    const got = passed(run(['slidingCounter'], limit, 2, timestamps).lanes[0].outcomes, previous);
    questions.push({
      id: 'counter',
      prompt: t('quiz.counter.prompt', { limit, previous, percent: t.percent(fraction) }),
      options: numberOptions(rand, t, got, [limit - previous, limit, got + 1, got - 1]),
      answer: String(got),
      explain: t('quiz.counter.explain', { previous, fraction, weighted: previous * (1 - fraction), limit, passed: got }),
      playback: { algorithms: ['slidingCounter', 'slidingLog', 'fixedWindow'], limit, duration: 2, timestamps, focusFrom: previous },
    });
  }

  {
    // Leaky bucket as a queue: a burst on an idle server.
    const limit = pick(rand, [3, 4, 5]);
    const burst = limit + pick(rand, [2, 3, 4]);
    const timestamps = repeat(0.1, burst);
    const lane = run(['leakyQueue'], limit, 2, timestamps).lanes[0];
    const got = passed(lane.outcomes, 0);
    questions.push({
      id: 'queue',
      prompt: t('quiz.queue.prompt', { limit, interval: 1 / limit, burst }),
      options: numberOptions(rand, t, got, [limit, limit + 1, burst, 1]),
      answer: String(got),
      explain: t('quiz.queue.explain', { limit, last: Math.max(...lane.delays), dropped: burst - got }),
      playback: { algorithms: ['leakyQueue', 'tokenBucket'], limit, duration: 2, timestamps, focusFrom: 0 },
    });
  }

  {
    const interval = pick(rand, [0.2, 0.25, 0.5]);
    const burst = pick(rand, [5, 10]);
    const rate = 1 / interval;
    const option = (capacity, r) => ({ value: `${capacity}/${r}`, label: t('quiz.gcra.option', { capacity, rate: r }) });
    questions.push({
      id: 'gcra',
      prompt: t('quiz.gcra.prompt', { interval, burst }),
      options: shuffle(rand, [...new Map([option(burst, rate), option(burst, interval), option(1, rate), option(rate, burst)]
        .map((o) => [o.value, o])).values()].slice(0, 3)),
      answer: `${burst}/${rate}`,
      explain: t('quiz.gcra.explain', { rate, burst }),
    });
  }

  const named = (ids) => shuffle(rand, ids.map((id) => ({ value: id, label: t(`names.${id}`) })));
  for (const id of FACT_PAIRS[(seed - 1 + FACT_PAIRS.length) % FACT_PAIRS.length]) {
    const [answer, offered] = FACT_QUESTIONS[id];
    questions.push({ id, prompt: t(`quiz.${id}.prompt`), options: named(offered), answer, explain: t(`quiz.${id}.explain`) });
  }
  return questions;
}
