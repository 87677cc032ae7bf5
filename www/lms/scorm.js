// The SCORM run-time as the lesson uses it, once launch.js's findLms has found the LMS's API object
// (loaded only then, by lms/lesson.js): initialise; report the quick
// check's score and, once the learner has also met a refused request, completion; commit and
// finish when the page goes away. Every call goes through `call`, so an API that throws or answers
// "false" costs the learner nothing: one console warning, and the lesson goes on without it.

import { DEFAULT_PASSING } from './launch.js';

/** The data model names and calls that differ between the two versions. */
const MODEL = {
  '1.2': {
    initialize: 'LMSInitialize', set: 'LMSSetValue', get: 'LMSGetValue', commit: 'LMSCommit', finish: 'LMSFinish',
    learner: 'cmi.core.student_id', score: 'cmi.core.score', status: 'cmi.core.lesson_status', exit: 'cmi.core.exit',
  },
  '2004': {
    initialize: 'Initialize', set: 'SetValue', get: 'GetValue', commit: 'Commit', finish: 'Terminate',
    learner: 'cmi.learner_id', score: 'cmi.score', status: 'cmi.completion_status', exit: 'cmi.exit',
  },
};

export class ScormSession {
  #warned = false;

  /** Initialises the session with `lms` (from findLms); `warn` gets the one warning. */
  constructor({ version, api }, { warn = console.warn } = {}) {
    Object.assign(this, { version, api, warn, model: MODEL[version], active: true });
    // The other language's page (the language link, a remembered choice) continues the session
    // the first page started: there Initialize answers "already initialized" and the data model
    // still answers, so that is no problem.
    if (!this.#continuing()) this.active = this.#call('initialize', '') !== null;
    if (!this.active) return;
    const status = this.#call('get', this.model.status);
    if (status === 'not attempted' || status === 'unknown' || status === '') this.#set(this.model.status, 'incomplete');
  }

  /** The learner's id in the LMS ('' when the LMS doesn't say). */
  get learnerId() {
    return this.active ? this.#call('get', this.model.learner) ?? '' : '';
  }

  /**
   * The quick check's score, `{ correct, total }`, as a percentage (raw out of min 0, max 100):
   * Moodle grades by the raw score alone, against its own maximum grade (100 by default), so a
   * raw of 6 "out of 8" would read there as 6 out of 100. 2004 also gets scaled and success.
   */
  reportScore({ correct, total }) {
    const prefix = this.model.score;
    const scaled = total ? correct / total : 0;
    this.#set(`${prefix}.min`, '0');
    this.#set(`${prefix}.max`, '100');
    this.#set(`${prefix}.raw`, String(Math.round(scaled * 1e4) / 100));
    if (this.version === '2004') {
      const threshold = Number.parseFloat(this.#call('get', 'cmi.scaled_passing_score') ?? '');
      this.#set('cmi.score.scaled', String(Math.round(scaled * 1e4) / 1e4));
      this.#set('cmi.success_status', scaled >= (Number.isFinite(threshold) ? threshold : DEFAULT_PASSING) ? 'passed' : 'failed');
    }
    this.#call('commit', '');
  }

  /** The lesson is done: the learner met a 429 and finished the quick check. */
  reportCompleted() {
    this.#set(this.model.status, 'completed');
    this.#call('commit', '');
  }

  /**
   * The page goes away (pagehide): saves, and ends the session once the learner has finished
   * (`complete`). Before that the session stays open, because the next page may be the lesson in
   * the other language, which carries on with it; the LMS ends it when the learner closes it.
   */
  leave(complete) {
    if (!this.active) return;
    this.#set(this.model.exit, complete ? (this.version === '2004' ? 'normal' : '') : 'suspend');
    this.#call('commit', '');
    if (!complete) return;
    this.#call('finish', '');
    this.active = false;
  }

  /** Whether a page before this one initialised the session and left it open. */
  #continuing() {
    try {
      const status = this.api[this.model.get](this.model.status);
      const error = this.api[this.version === '2004' ? 'GetLastError' : 'LMSGetLastError']();
      return String(error) === '0' && status !== '';
    } catch {
      return false;
    }
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
        const code = this.api[this.version === '2004' ? 'GetLastError' : 'LMSGetLastError']();
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
