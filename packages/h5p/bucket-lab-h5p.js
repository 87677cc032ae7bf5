// H5P.BucketLab: the <bucket-lab> element as an H5P content type. scripts/h5p.mjs bundles this
// file with the element into one classic script (H5P loads libraries with <script> tags) and
// inlines the wasm as base64 (`bucketlab:wasm`), since H5P hosts refuse .wasm uploads, and the
// element's stylesheets, since hosts may serve the script from a folder of aggregated assets.
// The author's parameters (semantics.json): capacity, refillRate, cost, language, controls, question;
// a field the content leaves out takes its default from semantics.json, as in the editor. A cost
// above the capacity, which the editor cannot refuse (H5P's semantics have no rule across fields),
// shows a message naming the editor's fields instead of the diagram.
// xAPI goes through H5P's own dispatcher: `experienced` when shown, `interacted` at the first
// refused request (429), and for the question `answered` (a choice interaction: its choices and
// the correct one) and `completed`, scored.
// The question keeps to H5P's question contract, so a host saves and restores it and a container
// (Course Presentation, Interactive Book) can score and reset it: getCurrentState() is the
// learner's answer, which the host hands back as `previousState` in a later sitting (shown
// answered, with its score, and no statement sent again); getAnswerGiven(), resetTask().
import wasmBase64 from 'bucketlab:wasm';
import init from '../../www/pkg/bucketlab.js';
import '../../www/element/bucket-lab.js';
import tables from '../../www/i18n/locales/lms.js';
import { translator } from '../../www/i18n/translate.js';
import semantics from './semantics.json';

const H5P = window.H5P;

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
    // An answer saved in an earlier sitting counts from here, before the content is shown (a
    // container may score or save it first), if it is one of this question's choices: the author
    // may have changed the bucket since.
    if (this.askQuestion && saved !== null) {
      const { answer, choices } = questionChoices(this.params.capacity, this.params.cost);
      if (choices.map(String).includes(saved)) this.#answer(saved, answer);
    }
  }

  /** H5P's question contract, so hosts can read the score. */
  getScore() {
    return this.score;
  }

  getMaxScore() {
    return this.askQuestion ? 1 : 0;
  }

  /** Takes `response` (a choice's value) as the answer given, scored against `answer`. */
  #answer(response, answer) {
    this.response = response;
    this.score = Number(response) === answer ? 1 : 0;
  }

  /** Whether the question has been answered (checked). */
  getAnswerGiven() {
    return this.response != null;
  }

  /** The learner's answer, for the host to save; undefined (nothing to save) before one. */
  getCurrentState() {
    return this.response == null ? undefined : { response: this.response };
  }

  /** Back to an unanswered question (a container's "Retry"); the bucket is left as it is. */
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
    if (this.askQuestion) root.append(this.#question(capacity, cost));
    started.then(() => {
      this.triggerXAPI('experienced');
      this.trigger('resize');
    }, (error) => console.warn(`H5P.BucketLab could not start its WebAssembly module: ${error.message}`));
  }

  #question(capacity, cost) {
    const { t } = this;
    const { answer, choices } = questionChoices(capacity, cost);
    const name = `h5p-bucket-lab-${this.contentId}`;
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
    const check = Object.assign(document.createElement('button'), { type: 'button', className: 'h5p-bucket-lab-check', textContent: t('h5p.check') });
    const feedback = Object.assign(document.createElement('p'), { className: 'h5p-bucket-lab-feedback' });
    feedback.setAttribute('role', 'status');
    const inputs = [...fieldset.querySelectorAll('input')];
    /** Shows `chosen` (an input) as the answer given, scored. */
    const answerWith = (chosen) => {
      chosen.checked = true;
      this.#answer(chosen.value, answer);
      feedback.textContent = t(this.score ? 'h5p.right' : 'h5p.wrong', { count: answer });
      for (const input of inputs) input.disabled = true;
      check.disabled = true;
    };
    this.resetQuestion = () => {
      for (const input of inputs) Object.assign(input, { checked: false, disabled: false });
      check.disabled = false;
      feedback.textContent = '';
      this.trigger('resize');
    };
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
      this.triggerXAPIScored(this.score, 1, 'completed', true, this.score === 1);
      this.trigger('resize');
    });
    const box = document.createElement('div');
    box.append(fieldset, check, feedback);
    return box;
  }
}

H5P.BucketLab = BucketLab;
