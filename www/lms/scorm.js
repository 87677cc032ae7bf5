// The SCORM run-time as the lesson uses it, once launch.js's findLms has found the LMS's API object
// (loaded only then, by lms/lesson.js): initialise; restore the learner's progress from
// suspend_data (a 429 met, the quick check done, the best score: what an earlier sitting or the
// other language's page saved); report the quick check's best score and, once the learner has
// also met a refused request, completion, and each answer as an interaction; report the session's
// time, commit and finish when the page goes away (unless the next lesson page carries the
// session on). Every call goes through `call`, so an API that throws or answers "false" costs
// the learner nothing: one console warning, and the lesson goes on without it.

import { LANGS } from '../i18n/translate.js';
import { answersOf } from '../lesson/quiz-answers.js';
import { DEFAULT_PASSING } from './launch.js';

/** The data model names and calls that differ between the two versions. */
const MODEL = {
  '1.2': {
    initialize: 'LMSInitialize', set: 'LMSSetValue', get: 'LMSGetValue', commit: 'LMSCommit', finish: 'LMSFinish', lastError: 'LMSGetLastError',
    learner: 'cmi.core.student_id', score: 'cmi.core.score', status: 'cmi.core.lesson_status', exit: 'cmi.core.exit',
    sessionTime: 'cmi.core.session_time', location: 'cmi.core.lesson_location', entry: 'cmi.core.entry',
  },
  '2004': {
    initialize: 'Initialize', set: 'SetValue', get: 'GetValue', commit: 'Commit', finish: 'Terminate', lastError: 'GetLastError',
    learner: 'cmi.learner_id', score: 'cmi.score', status: 'cmi.completion_status', exit: 'cmi.exit',
    sessionTime: 'cmi.session_time', location: 'cmi.location', entry: 'cmi.entry',
  },
};

/** Where a page that continues an open session finds when the session started (see `leave`). */
const STARTED_KEY = 'bucketlab:scorm-session-started';

/**
 * `ms` as the data model's session time: SCORM 1.2's CMITimespan `HHHH:MM:SS.SS`, SCORM 2004's
 * ISO 8601 duration (`PT1H2M3.45S`). Hundredths are the finest both allow.
 */
export function sessionTime(version, ms) {
  const hundredths = Math.max(0, Math.round(ms / 10));
  const hours = Math.floor(hundredths / 360_000);
  const minutes = Math.floor(hundredths / 6000) % 60;
  const seconds = (hundredths % 6000) / 100;
  if (version === '1.2') {
    const pad = (n, width) => String(n).padStart(width, '0');
    return `${pad(hours, 4)}:${pad(minutes, 2)}:${pad(Math.floor(seconds), 2)}.${pad(hundredths % 100, 2)}`;
  }
  return `PT${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${seconds}S`;
}

/**
 * The learner's progress toward completion as suspend_data holds it (JSON), or the empty progress
 * for a value that is missing or not ours: `{ refused, quizDone, best, answers, lang }`, `best` the
 * best quick-check score so far (`{ correct, total }`) or null, `answers` the first set's answers
 * so far (`{ question id: chosen value }`, shown again in a later sitting), `lang` the language of
 * the page the learner was last on (null: none saved).
 */
export function readProgress(text) {
  const empty = { refused: false, quizDone: false, best: null, answers: {}, lang: null };
  let saved;
  try {
    saved = JSON.parse(text);
  } catch {
    return empty;
  }
  if (!saved || typeof saved !== 'object') return empty;
  const { best } = saved;
  const scoreOk = best && Number.isInteger(best.correct) && Number.isInteger(best.total) && best.total > 0 && best.correct >= 0 && best.correct <= best.total;
  return {
    refused: saved.refused === true,
    quizDone: saved.quizDone === true,
    best: scoreOk ? { correct: best.correct, total: best.total } : null,
    answers: answersOf(saved.answers),
    lang: LANGS.includes(saved.lang) ? saved.lang : null,
  };
}

/**
 * One quick-check answer as the data model's interaction `n` in `version`: [element, value] pairs
 * in the order the run-time takes them (the id first, the type before the responses). `question`
 * is the bucketlab:answer detail ({ id, prompt, answer, response }), `at` the Date it was given.
 * 2004: a choice, its values as short identifiers (Moodle takes only letters, digits, _ and . in
 * them: the GCRA question's "B/r" is written B_r), the prompt as the description.
 * 1.2: a fill-in with the chosen value: a 1.2 choice's responses are single characters (a-z,
 * 0-9), which would have to be the option's place on screen, and the options are shuffled per
 * learner, so one letter would mean different answers; a fill-in takes any text up to 255
 * characters, on every LMS. Its id keeps to letters, digits and hyphens ("alphanumeric" in 1.2).
 */
export function interaction(version, n, { id, prompt, answer, response }, at, lang) {
  const base = `cmi.interactions.${n}`;
  const right = response === answer;
  if (version === '1.2') {
    const pad = (value) => String(value).padStart(2, '0');
    return [
      [`${base}.id`, `quick-check-${id}`],
      [`${base}.type`, 'fill-in'],
      [`${base}.correct_responses.0.pattern`, answer],
      [`${base}.student_response`, response],
      [`${base}.result`, right ? 'correct' : 'wrong'],
      // CMITime: the learner's clock time of day.
      [`${base}.time`, `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`],
    ];
  }
  const identifier = (value) => String(value).replace(/[^\w.]/g, '_');
  return [
    [`${base}.id`, `urn:bucketlab:quick-check:${id}`],
    [`${base}.type`, 'choice'],
    // A localized string of at most 250 characters (its SPM), the language tag counted.
    [`${base}.description`, `{lang=${lang}}${prompt}`.slice(0, 250)],
    [`${base}.correct_responses.0.pattern`, identifier(answer)],
    [`${base}.learner_response`, identifier(response)],
    [`${base}.result`, right ? 'correct' : 'incorrect'],
    // time (second,10,0) in UTC: the zone may only follow a fraction, of hundredths at most.
    [`${base}.timestamp`, at.toISOString().replace(/(\.\d\d)\dZ$/, '$1Z')],
  ];
}

/** Whether the quick-check score `score` beats `best` (null: nothing reported yet), as a share right. */
export function beats(score, best) {
  if (!score.total) return false;
  return !best || score.correct / score.total > best.correct / best.total;
}

export class ScormSession {
  #warned = false;
  /** How many interactions the attempt holds: where the next answer goes (see `reportAnswer`). */
  #interactions = 0;

  /**
   * Initialises the session with `lms` (from findLms); `warn` gets the one warning; `now` (ms) and
   * `storage` (sessionStorage) time the session.
   */
  constructor({ version, api }, { warn = console.warn, now = () => Date.now(), storage = globalThis.sessionStorage } = {}) {
    Object.assign(this, { version, api, warn, now, model: MODEL[version], active: true });
    // The other language's page (the language link, a remembered choice) continues the session
    // the first page started: there Initialize answers "already initialized" and the data model
    // still answers (see `#begin`). Its session time counts from the first page's start, which
    // that page left in the frame's sessionStorage.
    const begun = this.#begin();
    this.active = begun !== null;
    if (!this.active) return;
    const continuing = begun === 'continued';
    this.continuing = continuing;
    this.startedAt = now();
    try {
      const started = Number(storage?.getItem(STARTED_KEY));
      if (continuing && started > 0 && started <= this.startedAt) this.startedAt = started;
      else storage?.setItem(STARTED_KEY, String(this.startedAt));
    } catch {
      // No storage (a sandboxed frame): this page's own time is the best there is.
    }
    const status = this.#call('get', this.model.status);
    if (status === 'not attempted' || status === 'unknown' || status === '') this.#set(this.model.status, 'incomplete');
    // The answers go on after those the LMS holds (an earlier sitting's, the other language's
    // page's): a new interaction's n must be the count, as the run-time refuses a gap.
    const held = Number.parseInt(this.#call('get', 'cmi.interactions._count') ?? '', 10);
    this.#interactions = Number.isInteger(held) && held > 0 ? held : 0;
  }

  /** The learner's id in the LMS ('' when the LMS doesn't say). */
  get learnerId() {
    return this.active ? this.#call('get', this.model.learner) ?? '' : '';
  }

  /**
   * The progress saved by an earlier sitting (suspend_data, which the LMS hands back on resume)
   * or by the other language's page in this session; the empty progress when there is none.
   */
  get savedProgress() {
    return readProgress(this.active ? this.#call('get', 'cmi.suspend_data') ?? '' : '');
  }

  /**
   * In a sitting the LMS resumes (entry "resume"), on its first page, the language of the page the
   * last sitting was left on (suspend_data's), which may be another computer's choice; else null.
   * A page that carries the session on (`continuing`) was reached by the learner's own choice.
   */
  get resumedLang() {
    if (!this.active || this.continuing || this.#call('get', this.model.entry) !== 'resume') return null;
    return this.savedProgress.lang;
  }

  /**
   * In a sitting the LMS resumes (entry "resume"), the location the last one left (`leave`
   * writes the id of the section the learner was reading), or null. Any text the LMS kept: the
   * page checks it is one of its sections.
   */
  get resumedPlace() {
    if (!this.active || this.#call('get', this.model.entry) !== 'resume') return null;
    return this.#call('get', this.model.location) || null;
  }

  /**
   * Saves `progress` ({ refused, quizDone, best, answers, lang }) for the next page or sitting, with the
   * time so far and the exit a sitting left unfinished has (suspend), and commits (unless not
   * `commit`: a single answer, which `leave`'s commit or the next step's carries): the commit
   * `leave` makes as the page goes away may never reach the LMS (an LMS page that navigates away
   * cancels a request still under way), and this one then stands for it.
   */
  saveProgress({ refused, quizDone, best, answers, lang = null }, { commit = true } = {}) {
    this.#set('cmi.suspend_data', JSON.stringify({ refused, quizDone, best, answers, lang }));
    this.#setTime();
    this.#set(this.model.exit, 'suspend');
    if (commit) this.#call('commit', '');
  }

  /**
   * The quick check's score, `{ correct, total }`, as a percentage (raw out of min 0, max 100):
   * Moodle grades by the raw score alone, against its own maximum grade (100 by default), so a
   * raw of 6 "out of 8" would read there as 6 out of 100. 2004 also gets scaled and success.
   * Reported only when it `beats` `best`, the best one reported before (null: none), and the raw
   * score the LMS holds (an LMS may keep the score but not hand back the suspend_data that holds
   * `best`), so a reported score, and 2004's passed, is never lowered within an attempt; returns
   * whether it was.
   */
  reportScore({ correct, total }, best = null) {
    if (!this.active || !beats({ correct, total }, best)) return false;
    const prefix = this.model.score;
    const scaled = total ? correct / total : 0;
    const held = Number.parseFloat(this.#call('get', `${prefix}.raw`) ?? '');
    if (held > Math.round(scaled * 1e4) / 100) return false;
    this.#set(`${prefix}.min`, '0');
    this.#set(`${prefix}.max`, '100');
    this.#set(`${prefix}.raw`, String(Math.round(scaled * 1e4) / 100));
    if (this.version === '2004') {
      this.#set('cmi.score.scaled', String(Math.round(scaled * 1e4) / 1e4));
      this.#set('cmi.success_status', scaled >= this.passingScore ? 'passed' : 'failed');
    }
    this.#call('commit', '');
    return true;
  }

  /**
   * One answer of the quick check's first set, `question` ({ id, prompt, answer, response }, as
   * bucketlab:answer gives it), as the next interaction (see `interaction`), on the page's `lang`;
   * committed with the save that follows it. Each answer comes once (an answer shown again from
   * suspend_data or the other page is not given again), so none is written twice.
   */
  reportAnswer(question, lang, at = new Date(this.now())) {
    if (!this.active) return;
    for (const [element, value] of interaction(this.version, this.#interactions, question, at, lang)) this.#set(element, value);
    this.#interactions += 1;
  }

  /**
   * The scaled score that passes: the LMS's `cmi.scaled_passing_score` in SCORM 2004 when it sets
   * one, else DEFAULT_PASSING (SCORM 1.2 has none).
   */
  get passingScore() {
    if (this.version !== '2004' || !this.active) return DEFAULT_PASSING;
    const threshold = Number.parseFloat(this.#call('get', 'cmi.scaled_passing_score') ?? '');
    return Number.isFinite(threshold) ? threshold : DEFAULT_PASSING;
  }

  /** The lesson is done: the learner met a 429 and finished the quick check. */
  reportCompleted() {
    this.#set(this.model.status, 'completed');
    this.#call('commit', '');
  }

  /**
   * The page goes away (pagehide): saves and ends the session (SCORM 1.2 wants LMSFinish before
   * the SCO unloads), finished once the learner is done (`complete`), else suspended for a later
   * sitting, which opens at `place` (the id of the section the learner was reading; null at the
   * top). When the next page is one of the lesson's (`continued`: the other language's, Back, a
   * reload), which carries the session on, it stays open, suspended: that page ends it, and says
   * the place.
   */
  leave(complete, continued = false, place = null) {
    if (!this.active) return;
    this.#setTime();
    // At the top there is no section to name (SCORM 2004 refuses an empty location): kept as it was.
    if (!continued && place) this.#set(this.model.location, place);
    this.#set(this.model.exit, complete && !continued ? (this.version === '2004' ? 'normal' : '') : 'suspend');
    this.#call('commit', '');
    if (continued) return;
    this.#call('finish', '');
    this.active = false;
  }

  /** The session's time so far, which the LMS adds to the learner's total when it ends. */
  #setTime() {
    this.#set(this.model.sessionTime, sessionTime(this.version, this.now() - this.startedAt));
  }

  /**
   * Initialises the session: 'new'; or 'continued' when a page before this one (the other
   * language's) initialised it and left it open, which Initialize refuses: SCORM 2004 says so
   * (error 103), 1.2 only has its general exception (101), so its data model must answer too;
   * null (and the warning) when the LMS refuses otherwise. Initialize comes first: the run-time
   * takes no other call before it.
   */
  #begin() {
    const name = this.model.initialize;
    let answer;
    try {
      answer = this.api[name]('');
    } catch (error) {
      return this.#problem(`${name}() threw ${error?.message ?? error}`);
    }
    if (String(answer) === 'true') return 'new';
    const lastError = () => String(this.api[this.model.lastError]());
    let code = '';
    try {
      code = lastError();
      if (code === '103' || (code === '101' && this.api[this.model.get](this.model.status) !== '' && lastError() === '0')) return 'continued';
    } catch {
      // An error call that fails says nothing more.
    }
    return this.#problem(`${name}() answered ${answer}${code ? ` (error ${code})` : ''}`);
  }

  #set(element, value) {
    this.#call('set', element, value);
  }

  /** Calls the API's `which` method; null (and one warning) when it throws or refuses. */
  #call(which, ...args) {
    if (!this.active && which !== 'initialize') return null;
    const name = this.model[which];
    let answer;
    try {
      answer = this.api[name](...args);
    } catch (error) {
      return this.#problem(`${name}(${args.join(', ')}) threw ${error?.message ?? error}`);
    }
    if (which === 'get') return answer == null ? null : String(answer);
    if (String(answer) !== 'true') {
      let detail = '';
      try {
        const code = this.api[this.model.lastError]();
        detail = ` (error ${code})`;
      } catch {
        // The error call itself failing says nothing more.
      }
      return this.#problem(`${name}(${args.join(', ')}) answered ${answer}${detail}`);
    }
    return answer;
  }

  #problem(text) {
    if (!this.#warned) {
      this.#warned = true;
      this.warn(`bucketlab: the LMS's SCORM ${this.version} API ${text}; the lesson keeps working without it`);
    }
    return null;
  }
}
