// H5P.BucketLab: the <bucket-lab> element as an H5P content type. scripts/h5p.mjs bundles this
// file with the element into one classic script (H5P loads libraries with <script> tags) and
// inlines the wasm as base64 (`bucketlab:wasm`), since H5P hosts refuse .wasm uploads, and the
// element's stylesheets, since hosts may serve the script from a folder of aggregated assets.
// The author's parameters (semantics.json): capacity, refillRate, cost, language, controls, question;
// a field the content leaves out takes its default from semantics.json, as in the editor. A cost
// above the capacity, which the editor cannot refuse (H5P's semantics have no rule across fields),
// shows a message naming the editor's fields instead of the diagram.
// xAPI goes through H5P's own dispatcher: `experienced` when shown, `interacted` at the first
// refused request (429), and for each Check of the question one `answered`, scored (a choice
// interaction: its choices and the correct one). Only that one, as stock H5P questions send: H5P's
// core reports every parentless scored `answered` or `completed` to the host as a finished attempt
// (setFinished), and Moodle's H5P activity records each as an attempt, so a `completed` beside it
// would count every Check twice.
// After a wrong answer, Retry clears it (resetTask); a right one stays, as in H5P's own questions.
// After a Check, focus goes to the feedback, so a keyboard or screen reader user hears the result
// and Tab reaches Retry next. The question appears once the diagram runs: where the WebAssembly
// cannot start (no WebAssembly in Safari's Lockdown Mode, or a policy), it is neither shown nor scored.
// The question keeps to H5P's question contract, so a host saves and restores it: getCurrentState()
// is the learner's answer, which the host hands back as `previousState` in a later sitting (shown
// answered, with its score, and no statement sent again); getAnswerGiven(), resetTask().
import wasmBase64 from 'bucketlab:wasm';
import init from '../../www/pkg/bucketlab.js';
import '../../www/element/bucket-lab.js';
import tables from '../../www/i18n/locales/lms.js';
import { translator } from '../../www/i18n/translate.js';
import semantics from './semantics.json';

const H5P = window.H5P;

/** How many questions this frame has made: each names its radio group after its own number. */
let questions = 0;

/** The wasm module, instantiated once from the inlined bytes; the element then finds it ready. */
let ready = null;
const loadWasm = () => {
  ready ??= init({ module_or_path: Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0)) });
  return ready;
};

/** Each semantics field's default, a group's as an object of its fields' defaults. */
const defaultsOf = (fields) => Object.fromEntries(fields.map((f) => [f.name, f.type === 'group' ? defaultsOf(f.fields) : f.default]));
const DEFAULTS = defaultsOf(semantics);

/** The content's parameters with every field it leaves out, inside the controls group too, at its default. */
function withDefaults(params) {
  return { ...DEFAULTS, ...params, controls: { ...DEFAULTS.controls, ...params?.controls } };
}

/** The element's `controls` attribute from the author's check boxes (all of them, defaults filled in). */
function controlsAttribute(controls) {
  const shown = Object.entries(controls).filter(([, on]) => on).map(([name]) => name);
  return shown.length ? shown.join(' ') : 'none';
}

/** The question's choices for a full bucket of `capacity` and requests of `cost`: the answer and near misses. */
function questionChoices(capacity, cost) {
  const answer = Math.floor(capacity / cost + 1e-9);
  const choices = [...new Set([answer, answer + 1, Math.max(0, answer - 1), Math.round(capacity)])].sort((a, b) => a - b);
  return { answer, choices };
}

/** A saved state's text as an object, or null for text that is not JSON. */
function parseState(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

class BucketLab extends H5P.EventDispatcher {
  constructor(params, contentId, extras = {}) {
    super();
    this.params = withDefaults(params);
    // What an earlier sitting saved (getCurrentState): parsed by H5P's core, or text from a host
    // that passes it on as it stored it. Anything else is ignored.
    const previous = typeof extras.previousState === 'string' ? parseState(extras.previousState) : extras.previousState;
    const saved = typeof previous?.response === 'string' ? previous.response : null;
    // A cost above the capacity shows the author a message, and no question (see attach).
    this.askQuestion = this.params.question && this.params.cost <= this.params.capacity;
    this.contentId = contentId;
    this.t = translator(tables, this.params.language);
    this.score = 0;
    this.response = null;
    // Whether an answer has been given in any sitting: once cleared, the empty state is saved too,
    // so the host forgets the answer taken back.
    this.answered = false;
    // An answer saved in an earlier sitting counts from here, before the content is shown (the
    // host may score or save it first), if it is one of this question's choices: the author
    // may have changed the bucket since.
    if (this.askQuestion && saved !== null) {
      const { answer, choices } = questionChoices(this.params.capacity, this.params.cost);
      if (choices.map(String).includes(saved)) this.#answer(saved, answer);
    }
  }

  /** H5P's question contract, so hosts can read the score. */
  getScore() {
    return this.askQuestion ? this.score : 0;
  }

  getMaxScore() {
    return this.askQuestion ? 1 : 0;
  }

  /** Takes `response` (a choice's value) as the answer given, scored against `answer`. */
  #answer(response, answer) {
    this.response = response;
    this.score = Number(response) === answer ? 1 : 0;
    this.answered = true;
  }

  /** Whether the question has been answered (checked). */
  getAnswerGiven() {
    return this.askQuestion && this.response != null;
  }

  /**
   * The learner's answer, for the host to save: undefined (nothing to save) before one, and none
   * (`{}`) after Retry took it back. Undefined too when the question is not asked, so the host
   * keeps what an earlier sitting saved.
   */
  getCurrentState() {
    if (!this.askQuestion || !this.answered) return undefined;
    return this.response == null ? {} : { response: this.response };
  }

  /** Back to an unanswered question (Retry, or a host's reset); the bucket is left as it is. */
  resetTask() {
    this.response = null;
    this.score = 0;
    this.resetQuestion?.();
  }

  attach($container) {
    const { capacity, refillRate, cost, language, controls } = this.params;
    const root = document.createElement('div');
    root.className = 'h5p-bucket-lab';
    root.lang = language;
    // H5P fits its frame to the content only when asked, and the content changes size after the
    // first paint: the element shows its frame once its stylesheets load, a response adds the
    // panel, the question's feedback a line. Every change of size asks again.
    $container.get(0).replaceChildren(root);
    new ResizeObserver(() => this.trigger('resize')).observe(root);
    if (cost > capacity) {
      // The element would name its `cost` attribute, which an H5P author never sees: this names
      // the editor's fields. No question either: it would have no right answer.
      const message = Object.assign(document.createElement('p'), { className: 'h5p-bucket-lab-error', textContent: this.t('h5p.costAboveCapacity', { cost, capacity }) });
      message.setAttribute('role', 'alert');
      root.append(message);
      return;
    }
    // Started before the element is connected, so the element never fetches a .wasm of its own.
    const started = loadWasm();
    const element = document.createElement('bucket-lab');
    for (const [name, value] of Object.entries({ capacity, 'refill-rate': refillRate, cost, lang: language, controls: controlsAttribute(controls) })) {
      element.setAttribute(name, String(value));
    }
    let refused = false;
    element.shadowRoot.addEventListener('bucketlab:decision', (event) => {
      if (refused || event.detail?.allowed !== false) return;
      refused = true;
      this.triggerXAPI('interacted');
    });
    this.element = element;
    root.append(element);
    // The question asks about the diagram: it appears once the diagram runs. Where the wasm cannot
    // start, the learner could not try the answer out, so it is not asked, and scores 0 of 0.
    started.then(() => {
      if (this.askQuestion) root.append(this.#question(capacity, cost));
      this.triggerXAPI('experienced');
      this.trigger('resize');
    }, (error) => {
      this.askQuestion = false;
      console.warn(`H5P.BucketLab could not start its WebAssembly module, so it asks no question: ${error.message}`);
    });
  }

  #question(capacity, cost) {
    const { t } = this;
    const { answer, choices } = questionChoices(capacity, cost);
    // One group per question: two instances of one content in a frame (a host that runs it twice) share its id.
    const name = `h5p-bucket-lab-${this.contentId}-${(questions += 1)}`;
    const fieldset = document.createElement('fieldset');
    const legend = document.createElement('legend');
    legend.textContent = t('h5p.question', { capacity, cost });
    fieldset.append(legend);
    for (const choice of choices) {
      const label = document.createElement('label');
      const input = Object.assign(document.createElement('input'), { type: 'radio', name, value: String(choice) });
      label.append(input, ` ${t.number(choice)}`);
      fieldset.append(label);
    }
    const button = (className, text) => Object.assign(document.createElement('button'), { type: 'button', className: `h5p-bucket-lab-button ${className}`, textContent: t(text) });
    const check = button('h5p-bucket-lab-check', 'h5p.check');
    const retry = button('h5p-bucket-lab-retry', 'h5p.retry');
    retry.hidden = true;
    // Focused after a Check (tabIndex -1: by script only), so the result is read out where the
    // learner is, and Tab goes on to Retry.
    const feedback = Object.assign(document.createElement('p'), { className: 'h5p-bucket-lab-feedback', tabIndex: -1 });
    feedback.setAttribute('role', 'status');
    const inputs = [...fieldset.querySelectorAll('input')];
    /**
     * Shows `chosen` (an input) as the answer given, scored. Check goes; Retry comes after a wrong
     * answer only: a right one has nothing left to gain, and taking it back would only cost the
     * learner another attempt on the host.
     */
    const answerWith = (chosen) => {
      chosen.checked = true;
      this.#answer(chosen.value, answer);
      // A wrong answer is told how to find the right one, not the number Retry would then score.
      feedback.textContent = this.score ? t('h5p.right', { count: answer }) : t('h5p.wrong', { count: cost, capacity });
      for (const input of inputs) input.disabled = true;
      check.hidden = true;
      retry.hidden = this.score === 1;
    };
    this.resetQuestion = () => {
      for (const input of inputs) Object.assign(input, { checked: false, disabled: false });
      check.hidden = false;
      retry.hidden = true;
      feedback.textContent = '';
      this.trigger('resize');
    };
    retry.addEventListener('click', () => {
      this.resetTask();
      inputs[0].focus();
    });
    // An answer saved in an earlier sitting (see the constructor): shown as given, and sent to no
    // one again.
    const saved = inputs.find((input) => input.value === this.response);
    if (saved) answerWith(saved);
    check.addEventListener('click', () => {
      const chosen = fieldset.querySelector('input:checked');
      if (!chosen) return void (feedback.textContent = t('h5p.chooseFirst'));
      answerWith(chosen);
      const answered = this.createXAPIEventTemplate('answered');
      // What a host's attempts report shows: the question, its choices and the right one.
      Object.assign(answered.data.statement.object.definition, {
        description: { [this.params.language]: legend.textContent },
        type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
        interactionType: 'choice',
        choices: choices.map((value) => ({ id: String(value), description: { [this.params.language]: t.number(value) } })),
        correctResponsesPattern: [String(answer)],
      });
      answered.setScoredResult(this.score, 1, this, true, this.score === 1);
      answered.data.statement.result.response = chosen.value;
      this.trigger(answered);
      feedback.focus();
      this.trigger('resize');
    });
    const box = document.createElement('div');
    box.append(fieldset, check, feedback, retry);
    return box;
  }
}

H5P.BucketLab = BucketLab;
