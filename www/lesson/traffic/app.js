// Mounts "Your traffic": a log file (dropped, chosen, or the seeded sample) replayed in a module
// worker (worker.js) with a progress bar and a cancel button; then the per-client table (sortable),
// the busiest client's timeline with "play it in the diagram", the burst–rate curve and the
// policy's exports. The core computes everything; this file only renders.
import tables from '../../i18n/locales/traffic.js';
import { cut, langOf, pickLang, translator } from '../../i18n/translate.js';
import { NUMBER_FIELD, fieldNumber, fieldText, readings, unreadable } from '../../i18n/typed-number.js';
import { el, uid } from '../lab/dom.js';
import { curveChart, curveSeries, timelineChart } from './charts.js';
import { wireCopyButton } from '../copy.js';
import { showFailure } from '../lazy.js';

const SAMPLE = { seed: 1, lines: 20000 };
// The targets as the replay reads them (`--recommend`), each with its label's key in traffic.json
// (a key cannot hold the dot of `0.1`: the translator reads dots as nesting).
const TARGETS = { 'keys:99%': 'keys99', 'keys:95%': 'keys95', 'requests:0.1%': 'requests0_1', 'requests:1%': 'requests1' };
// The limiters `ReplayJob` takes (the command's `--algorithm`); the first is the default.
const ALGORITHMS = ['token-bucket', 'fixed-window', 'sliding-log', 'sliding-counter', 'gcra'];
const FORMATS = ['combined', 'common', 'json', 'alb', 'csv'];
const ROWS = 100;
/** The page's control for each setting a setup error names (`errors.controls.*`), by the command's name for it. */
const CONTROLS = { format: 'format', key: 'key', 'time-field': 'timeField', capacity: 'capacity', 'refill-rate': 'rate', algorithm: 'algorithm' };
/** The settings that are numbers: their refused values are written the page's way (2,5). */
const NUMBERS = new Set(['capacity', 'refill-rate']);
const COLUMNS = ['key', 'requests', 'limited', 'share'];
/** The charts' labels, in em of the text around them (12 px on a phone, 12.8 on a laptop). */
const CHART_FONT = 0.75;
/** The narrowest a chart is drawn; a narrower box shows it scaled down. */
const CHART_MIN_WIDTH = 200;

export function mountTraffic(root) {
  let t = translator(tables, langOf());
  const view = new TrafficView(root, t);
  document.addEventListener('bucketlab:langchange', (event) => {
    const lang = pickLang(event.detail?.lang ?? document.documentElement.lang);
    if (lang !== t.lang) view.setLang((t = translator(tables, lang)));
  });
  return view.handle;
}

class TrafficView {
  constructor(root, t) {
    Object.assign(this, { root, t });
    this.worker = null;
    this.run = 0;
    this.source = null;
    this.outcome = null;
    this.sort = { column: 'requests', descending: true };
    this.render();
  }

  get handle() {
    const self = this;
    return {
      runSample: () => self.start(null),
      cancel: () => self.cancel(),
      /** The last replay's result as the core gave it (the report is `--json`'s object). */
      get outcome() { return self.outcome; },
    };
  }

  setLang(t) {
    this.t = t;
    const values = this.values();
    this.render();
    this.setValues(values);
    if (this.outcome) this.showOutcome();
  }

  render() {
    const { t } = this;
    const field = (name, input, label = t(name)) => {
      input.id = uid(`tr-${name}`);
      return el('div', { class: `lab-field tr-field tr-field--${name}` }, [el('label', { for: input.id }, label), input]);
    };
    // Opening the chooser forgets the last choice, so that the same file chosen again (after a
    // setting was fixed) is a change, and runs, as a new one does.
    this.fileInput = el('input', {
      type: 'file', class: 'tr-file', accept: '.log,.gz,.txt,.csv,.json,.jsonl,.ndjson',
      onclick: () => { this.fileInput.value = ''; },
      onchange: () => this.fileInput.files[0] && this.start(this.fileInput.files[0]),
    });
    const fileId = uid('tr-file');
    this.fileInput.id = fileId;
    this.drop = el('div', { class: 'tr-drop', ondragover: (e) => { e.preventDefault(); this.drop.classList.add('tr-drop--over'); }, ondragleave: () => this.drop.classList.remove('tr-drop--over'), ondrop: (e) => { e.preventDefault(); this.drop.classList.remove('tr-drop--over'); const file = e.dataTransfer?.files?.[0]; if (file) this.start(file); } }, [
      el('label', { for: fileId, class: 'tr-drop-label' }, t('drop')),
      this.fileInput,
    ]);
    this.inputs = {
      capacity: el('input', { ...NUMBER_FIELD, value: '10' }),
      rate: el('input', { ...NUMBER_FIELD, value: '1' }),
      algorithm: el('select', {}, ALGORITHMS.map((id) => el('option', { value: id }, t(`algorithms.${id}`)))),
      target: this.choices('target', Object.entries(TARGETS).map(([id, key]) => [id, t(`targets.${key}`)])),
      format: el('select', {}, [el('option', { value: '' }, t('formatAuto')), ...FORMATS.map((f) => el('option', { value: f }, f))]),
      key: el('input', { type: 'text', spellcheck: 'false', autocomplete: 'off', placeholder: 'ip' }),
    };
    this.sampleButton = el('button', { type: 'button', class: 'tr-sample', 'aria-disabled': 'false', onclick: () => this.busy.hidden && this.start(null) }, t('sample', { seed: SAMPLE.seed }));
    // "Replay" until a log has been replayed, then "Replay again" (with the settings changed).
    this.rerun = el('button', { type: 'submit', class: 'lab-apply tr-rerun', disabled: true }, t(this.replayed ? 'run' : 'runFirst'));
    const form = el('form', { class: 'lab-form tr-form', novalidate: true, onsubmit: (e) => { e.preventDefault(); if (this.busy.hidden) this.start(this.source); } }, [
      field('capacity', this.inputs.capacity),
      field('rate', this.inputs.rate),
      field('algorithm', this.inputs.algorithm),
      this.inputs.target.fieldset,
      field('format', this.inputs.format),
      field('key', this.inputs.key),
      el('div', { class: 'lab-buttons' }, [this.sampleButton, this.rerun]),
    ]);
    this.progress = el('progress', { class: 'tr-progress', max: '100', value: '0', 'aria-label': t('progressLabel') });
    this.progressText = el('span', { class: 'tr-progress-text' });
    this.cancelButton = el('button', { type: 'button', class: 'tr-cancel', onclick: () => this.cancel() }, t('cancel'));
    this.busy = el('div', { class: 'tr-busy', hidden: true }, [this.progress, this.progressText, this.cancelButton]);
    this.status = el('p', { class: 'tr-status', role: 'status' });
    this.error = el('p', { class: 'lab-error tr-error', role: 'alert', id: uid('tr-error') });
    this.results = el('div', { class: 'tr-results' });
    this.root.replaceChildren(this.drop, form, this.busy, this.status, this.error, this.results);
    this.root.classList.add('tr-ready');
  }

  /**
   * A group of radio buttons (`[value, name]` each, the first chosen) with a `value` to read and set
   * as a menu's: the targets' names are long ("no máximo 0,1% das requisições limitadas"), and a
   * menu shows its chosen one on one line, cut at its width; here each wraps, read whole.
   */
  choices(name, options) {
    const group = uid(`tr-${name}`);
    const inputs = options.map(([value, text], i) => {
      const id = uid(`tr-${name}-option`);
      const input = el('input', { id, type: 'radio', name: group, value, checked: i === 0 });
      return [input, el('div', { class: 'tr-choice' }, [input, el('label', { for: id }, text)])];
    });
    return {
      fieldset: el('fieldset', { class: `tr-choices tr-field--${name}` }, [el('legend', {}, this.t(name)), ...inputs.map(([, row]) => row)]),
      get value() { return inputs.find(([input]) => input.checked)?.[0].value ?? options[0][0]; },
      set value(value) { for (const [input] of inputs) input.checked = input.value === value; },
    };
  }

  values() {
    return Object.fromEntries(Object.entries(this.inputs ?? {}).map(([k, input]) => [k, input.value]));
  }

  setValues(values) {
    for (const [k, v] of Object.entries(values)) this.inputs[k].value = v;
    this.rerun.disabled = this.source === null && !this.outcome;
  }

  options() {
    const v = this.values();
    const options = { capacity: fieldNumber(this.inputs.capacity), refillRate: fieldNumber(this.inputs.rate), algorithm: v.algorithm, target: v.target };
    if (v.format) options.format = v.format;
    if (v.key.trim()) options.key = v.key.trim();
    return options;
  }

  /**
   * The message for a number field left empty or holding text that is no number it can read
   * (www/i18n/typed-number.js: "dez", "1e400", "1,000", in Portuguese "1.000"), quoted, with the rule the core would
   * give, and the field; `undefined` when both fields hold numbers.
   */
  unreadNumber() {
    const { t } = this;
    for (const [input, control, why] of [
      [this.inputs.capacity, 'capacity', { code: 'positive', name: 'B' }],
      [this.inputs.rate, 'rate', { code: 'nonNegative', name: 'r' }],
    ]) {
      const text = input.value.trim();
      const wrong = text === '' ? 'empty' : unreadable(text, t.lang);
      if (!wrong) continue;
      const name = t(`errors.controls.${control}`);
      const field = wrong === 'empty' ? t('errors.fieldEmpty', { control: name })
        : t(`errors.typed.${wrong}`, { given: t('errors.given', { control: name, value: text }), ...readings(text, t.lang) });
      return [t('errors.options', { detail: `${field}: ${this.why(why)}.` }), input];
    }
    return undefined;
  }

  ensureWorker() {
    if (this.worker) return this.worker;
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = ({ data }) => this.onMessage(data);
    // The worker's script did not load (the network, or a new release replaced it) or it broke:
    // this worker is done for. The next run starts a new one; meanwhile the reader gets the way
    // out the other parts give, and the browser's words go to the console.
    this.worker.onerror = (e) => {
      console.warn(`bucketlab: the replay's worker failed: ${e.message ?? 'it did not load'}`);
      this.dropWorker();
      this.fail('');
      showFailure(this.error);
    };
    return this.worker;
  }

  /** Stops the worker, and the replay it holds; the next run starts a new one. */
  dropWorker() {
    this.worker?.terminate();
    this.worker = null;
  }

  start(file) {
    // A file chosen or dropped while a run is under way replaces it: that run's worker is
    // stopped (the file is only read there), and the new run gets a new one.
    if (!this.busy.hidden) this.dropWorker();
    this.source = file;
    this.run += 1;
    // An empty or unreadable number field is said as such: Number('') would send (and name) 0.
    const unread = this.unreadNumber();
    if (unread) {
      this.outcome = null;
      this.results.replaceChildren();
      this.say('');
      this.fail(...unread);
      this.rerun.disabled = false;
      return;
    }
    this.replayed = true;
    this.rerun.textContent = this.t('run');
    this.error.textContent = '';
    this.mark();
    this.say('');
    this.outcome = null;
    this.results.replaceChildren();
    this.setBusy(true);
    // The settings of this run, as the results describe them even if the form changes meanwhile.
    this.ran = this.options();
    this.ensureWorker().postMessage({ type: 'run', id: this.run, file: file ?? undefined, sample: file ? undefined : SAMPLE, options: this.ran });
  }

  follow(key) {
    // The pressed button goes with the results, which are drawn again: the key's timeline, under
    // the table, gets the focus (it would fall to the page's body).
    this.focusTimeline = true;
    this.run += 1;
    this.setBusy(true);
    this.worker.postMessage({ type: 'trace', id: this.run, key });
  }

  /**
   * Cancels the run under way, as the reader pressed it: its worker is stopped there and then
   * (what it had read or just finished is dropped, with the replay it held, so the results of an
   * earlier run go too), and the next run starts a new one.
   */
  cancel() {
    if (this.busy.hidden) return;
    // The Cancel button hides with the progress: its reader's focus goes to "Replay", beside it,
    // not to the page's body (where the next Tab would leave the form).
    const hadFocus = this.busy.contains(document.activeElement);
    this.dropWorker();
    this.run += 1;
    this.outcome = null;
    this.results.replaceChildren();
    this.setBusy(false);
    this.rerun.disabled = false;
    if (hadFocus) this.rerun.focus();
    this.say(this.t('cancelled'));
  }

  /**
   * The status line, a live region: `text` is said, and shown unless `shown` is false (a run's
   * gist, which the results' summary, in view under it, says at more length).
   */
  say(text, shown = true) {
    this.status.textContent = text;
    this.status.classList.toggle('sr-only', !shown);
  }

  setBusy(busy) {
    this.busy.hidden = !busy;
    // aria-disabled, not disabled, while a run is under way: a disabled button loses the focus
    // (to <body>) of the reader who has just pressed it. Clicks meanwhile are ignored (`busy.hidden`).
    for (const button of [this.sampleButton, this.rerun]) button.setAttribute('aria-disabled', String(busy));
    this.rerun.disabled = !busy && this.source === null && !this.outcome && this.run === 0;
    if (busy) {
      this.progress.value = 0;
      this.progressText.textContent = this.t('progress', { pass: 1, percent: this.t.percent(0) });
    }
  }

  onMessage(data) {
    if (data.id !== this.run || data.type === 'pass') return;
    const { t } = this;
    if (data.type === 'loading') {
      // No share of the log to show yet: the bar moves without a value.
      this.progress.removeAttribute('value');
      this.progressText.textContent = t('loadingCode');
      return;
    }
    if (data.type === 'progress') {
      const percent = data.size ? Math.floor((100 * data.read) / data.size) : 100;
      this.progress.value = percent;
      this.progressText.textContent = t('progress', { pass: data.pass, percent: t.percent(percent / 100, 0) });
      return;
    }
    this.setBusy(false);
    this.rerun.disabled = false;
    if (data.type === 'failed' && data.error.kind === 'download') {
      // The browser's words go to the console, as for the worker's script.
      console.warn(`bucketlab: the replay's wasm did not load: ${data.error.why}`);
      this.fail(t('errors.download'));
      // A dropped connection's return runs the same replay again, as the lesson's other parts
      // load again by themselves; not if the reader has started or cancelled another meanwhile.
      const failed = this.run;
      addEventListener('online', () => { if (this.run === failed && this.busy.hidden) this.start(this.source); }, { once: true });
    } else if (data.type === 'failed' && data.error.kind === 'broken') {
      // The replay went with its worker: results shown from it (a key's timeline asked for) go
      // too, as their Timeline buttons would ask a worker that is no more.
      this.dropWorker();
      this.outcome = null;
      this.results.replaceChildren();
      this.fail(t('errors.broken', { detail: data.error.why }));
    } else if (data.type === 'failed') {
      // A setting refused is marked on its control (the menus and fields the form has); a file no
      // choice of the Format menu can read (compressed, not text) marks none.
      const code = data.error.why?.code;
      const fileAtFault = typeof code === 'string' && (code === 'compressed' || code.startsWith('notText'));
      this.fail(this.failure(data.error), fileAtFault ? undefined : this.inputs[CONTROLS[data.error.option]]);
    } else if (data.type === 'done') {
      this.outcome = data.outcome;
      const { report } = data.outcome;
      if (report.lines === 0) return this.fail(t('errors.empty'));
      if (report.requests === 0) {
        // Read as CSV with nothing malformed and no request: its one line was the header.
        const headerOnly = data.outcome.format === 'csv' && report.malformed === 0;
        this.fail(headerOnly ? t('errors.headerOnly') : t('errors.noRequests', { lines: report.lines, malformed: report.malformed }));
        // Why each line was refused, as under a replay's results: without them the counts alone
        // leave the reader guessing.
        this.results.replaceChildren(...this.malformedList(report));
        this.outcome = null;
        return;
      }
      this.showOutcome();
      // The results are long: the status line says the gist once, for screen readers; unless
      // the results' summary, which says it at more length, has just taken the focus (after
      // "Replay with this policy"), and is read out for that.
      if (this.results.querySelector('.tr-summary') === document.activeElement) return;
      this.say(t('done', {
        requests: t('counts.requests', { count: report.requests }), keys: t('counts.clients', { count: report.keys }), limited: report.limited,
      }), false);
    }
  }

  /**
   * A failed run's message in the page's words: a setting is named as the page's control (the
   * Format menu, the Key field), the reason is the core's code worded from `errors.why`, and the
   * remedy points at that control, never at the command's flags. A setting the core refused
   * before reading (`options`) "is not allowed"; one the log refused "does not fit".
   */
  failure(e) {
    const { t } = this;
    if (e.kind === 'input') return t('errors.input', { detail: e.why });
    // Only a value the form cannot send (of another type) has no code: the core's English.
    if (typeof e.why?.code !== 'string') return t('errors.options', { detail: e.why });
    if (e.remedy === 'nameFormat') return t('errors.noFormat');
    // Not text, or compressed with something other than gzip: no choice of the Format menu
    // reads it; the reason alone.
    if (e.why.code.startsWith('notText') || e.why.code === 'compressed') return t('errors.format', { detail: `${this.why(e.why)}.` });
    const control = t(`errors.controls.${CONTROLS[e.option] ?? 'setting'}`, { option: e.option });
    // A typed value quoted as every message quotes one: cut, its reordering characters as codes.
    const value = NUMBERS.has(e.option) && e.value ? this.number(Number(e.value)) : e.value && cut(e.value);
    const given = value ? t('errors.given', { control, value }) : control;
    const remedy = e.remedy ? ` ${t(`errors.remedy.${e.remedy}`)}` : '';
    const frame = e.kind === 'options' ? 'errors.options' : e.option === 'format' ? 'errors.format' : 'errors.setting';
    return t(frame, { detail: `${given}: ${this.why(e.why)}.${remedy}` });
  }

  /** The core's reason (`{ code, …values }`) as `errors.why` words it, a limiter by its menu name. */
  why({ code, ...values }) {
    const { t } = this;
    for (const [name, value] of Object.entries(values)) {
      if (typeof value === 'number') values[name] = this.number(value);
    }
    if (values.algorithm) values.algorithm = t(`algorithms.${values.algorithm}`);
    return t(`errors.why.${code}`, values);
  }

  /**
   * Why a line could not be read (the core's `reason`, `{ code, …values }`; `why` beside it is the
   * command's English) as `unreadable.why` words it: a JSON value's kind and a web-server line's
   * part in the page's words (an ALB field keeps its own name), a limiter by its menu name, numbers
   * left to the translator, whose plural entries pick their form by `count`.
   */
  unreadable({ code, ...values }) {
    const { t } = this;
    if (values.kind) values.kind = t(`unreadable.kinds.${values.kind}`);
    if (values.part) values.part = t.raw(`unreadable.parts.${values.part}`) ?? values.part;
    if (values.limiter) values.limiter = t(`algorithms.${values.limiter}`);
    return t(`unreadable.why.${code}`, values);
  }

  /**
   * Why an export is not the policy replayed (`{ code, …values }`), as `exports.caveats` words it:
   * every digit, ungrouped, as the file's own comment quotes them (Envoy's 1000/3333 ms is
   * 0.3000300030003/s in both, not 0.30003 beside it).
   */
  caveat({ code, ...values }) {
    const { t } = this;
    for (const [name, value] of Object.entries(values)) {
      if (typeof value === 'number') values[name] = t.number(value, { digits: 20, group: false });
    }
    values.tool = t(`exports.names.${values.tool}`);
    return t(`exports.caveats.${code}`, values);
  }

  /**
   * `part` of `whole` as a percentage to one decimal; a share that is not 0 (or not all) is never
   * written as 0.0 % (or 100.0 %), but as < 0.1 % (> 99.9 %).
   */
  share(part, whole) {
    const { t } = this;
    const percent = (100 * part) / whole;
    if (part > 0 && percent < 0.05) return `< ${t.percent(0.001)}`;
    if (part < whole && percent >= 99.95) return `> ${t.percent(0.999)}`;
    return t.percent(percent / 100);
  }

  /** A number the language's way, fractions to six significant digits (a window of 0,0005 s). */
  number(value) {
    return this.t.number(value, Number.isInteger(value) ? undefined : { significant: 6 });
  }

  /**
   * Shows `message` and marks `field`, when a setting of the form is what is wrong, invalid and
   * described by it.
   */
  fail(message, field) {
    this.focusResults = false;
    this.focusTimeline = false;
    this.setBusy(false);
    this.error.textContent = message;
    this.mark(field);
  }

  /** Marks `field` (none: no field) invalid, described by the error line; the others unmarked. */
  mark(field) {
    for (const input of Object.values(this.inputs)) {
      if (input === field) {
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', this.error.id);
      } else if (input.hasAttribute?.('aria-invalid')) {
        input.removeAttribute('aria-invalid');
        input.removeAttribute('aria-describedby');
      }
    }
  }

  /** The lines report `r` could not read, each with why (none: nothing). */
  malformedList(r) {
    const { t } = this;
    if (!(r.malformed > 0)) return [];
    // "the first ones" only when some are left out.
    const all = r.malformedExamples.length === r.malformed;
    const parts = [
      el('p', { class: 'tr-malformed-title' }, t(all ? 'malformedAll' : 'malformed', { count: r.malformed })),
      el('ul', { class: 'tr-malformed' }, r.malformedExamples.map((m) => el('li', { 'data-line': m.line }, t('malformedLine', { line: m.line, why: this.unreadable(m.reason) })))),
    ];
    // The sample's are broken on purpose: said, or a learner takes them for a bug of the page.
    if (this.source === null) parts.push(el('p', { class: 'tr-note tr-sample-malformed' }, t('sampleMalformed')));
    return parts;
  }

  showOutcome() {
    const { t } = this;
    const o = this.outcome;
    const r = o.report;
    const opts = this.ran;
    const algorithm = t(`algorithms.${opts.algorithm}`);
    // Each count in its own plural entry ("1 line", "2 lines"), the sentence around them. B and r
    // as the page writes numbers (1.000 in Portuguese), but one too small for its 3 decimals as
    // typed (1e-300), which would read as a rate of 0.
    const setting = (n) => (n !== 0 && Math.abs(n) < 0.0005 ? fieldText(n, t.lang) : n);
    const summary = t('summary', {
      lines: t('counts.lines', { count: r.lines }), requests: t('counts.requests', { count: r.requests }), keys: t('counts.clients', { count: r.keys }),
      format: o.format, limited: r.limited, algorithm, capacity: setting(opts.capacity), rate: setting(opts.refillRate),
    });
    // Focusable from script: after "Apply", the new results take the focus (see applyRecommendation).
    const parts = [el('p', { class: 'tr-summary', tabindex: '-1' }, summary)];
    // Refusals no wait would lift (a cost above B, r = 0), counted apart as the command does.
    const never = r.never;
    if (never?.costExceedsCapacity) {
      parts.push(el('p', { class: 'tr-note tr-never tr-never--cost' }, t('never.costExceedsCapacity', { count: never.costExceedsCapacity, cost: never.largestCost, capacity: opts.capacity })));
    }
    if (never?.noRefill) parts.push(el('p', { class: 'tr-note tr-never tr-never--refill' }, t('never.noRefill', { count: never.noRefill })));
    if (r.epochUnits) parts.push(this.timesNote(r.epochUnits));
    // Times that went back (replayed at their client's latest: sort the log) and whole-second
    // times (limited counts an upper bound), as the command's report says them.
    const back = r.backwards;
    if (back) {
      const step = Math.round(back.largestStep * 1000) / 1000;
      parts.push(el('p', { class: 'tr-note tr-times--mixed tr-backwards' }, t('times.backwards', { count: back.requests, line: back.firstLine, step })));
    }
    if (r.wholeSecondTimes) parts.push(el('p', { class: 'tr-note tr-whole-seconds' }, t('times.wholeSeconds')));
    parts.push(...this.malformedList(r));
    const rec = r.recommendation;
    if (rec) {
      parts.push(el('p', { class: 'tr-recommendation' }, [
        t('recommendation', { target: t(`targets.${TARGETS[rec.target]}`), capacity: rec.capacity, rate: rec.refillRate, keys: rec.keysLimited, requests: rec.requestsLimited }),
        ' ',
        el('button', { type: 'button', class: 'tr-apply', onclick: () => this.applyRecommendation(rec) }, t('apply')),
      ]));
      // Times off by up to a second move a client's need by up to r × 1 s (B whole).
      if (r.wholeSecondTimes) {
        parts.push(el('p', { class: 'tr-recommendation-margin' }, t('recommendationWholeSeconds', { capacity: Math.ceil(rec.capacity + rec.refillRate) })));
      }
    } else if (rec === null) {
      parts.push(el('p', { class: 'tr-recommendation' }, t('noRecommendation')));
    }
    this.tableWrap = el('div', { class: 'tr-table-wrap' });
    parts.push(this.tableWrap);
    this.timeline = el('div', { class: 'tr-timeline' });
    parts.push(this.timeline);
    parts.push(this.curveFigure(rec ?? { capacity: opts.capacity, refillRate: opts.refillRate }, Boolean(rec)));
    // The curve, the recommendation and the exports are a token bucket's; another limiter's
    // refusals are only in the table and the timeline, which the note says.
    parts.push(opts.algorithm === ALGORITHMS[0]
      ? this.exportsPart()
      : el('p', { class: 'tr-note tr-algorithm-note' }, t('algorithmNote', { algorithm })));
    this.results.replaceChildren(...parts);
    this.drawCurve();
    this.renderTable();
    this.renderTimeline();
    const lost = document.activeElement === document.body || this.results.contains(document.activeElement);
    const heading = this.timeline.querySelector('h3');
    if (this.focusTimeline && lost && heading) heading.focus();
    else if (this.focusResults && lost) parts[0].focus();
    this.focusResults = false;
    this.focusTimeline = false;
  }

  /**
   * How numeric times were read (the report's `epochUnits`, by their size): the unit, or, when the
   * log mixes units, a warning naming each with its first line.
   */
  timesNote(units) {
    const { t } = this;
    const unit = (u) => t(`times.units.${u.unit}`);
    const said = units.length === 1
      ? t('times.read', { unit: unit(units[0]) })
      : t('times.mixed', { units: units.map((u) => t('times.unitFrom', { unit: unit(u), line: u.firstLine, count: u.requests })).join(', ') });
    const mixed = units.length > 1 ? ' tr-times--mixed' : '';
    return el('p', { class: `tr-note tr-times${mixed}` }, `${said} ${t('times.bySize')}`);
  }

  /** Replays with the recommended policy: a token bucket, whatever limiter ran before. */
  applyRecommendation(rec) {
    // The button goes with the results it sits in: the new results' summary gets the focus (it
    // would fall to the page's body), if the reader was still in the results by then.
    this.focusResults = true;
    this.inputs.capacity.value = fieldText(rec.capacity, this.t.lang);
    this.inputs.rate.value = fieldText(rec.refillRate, this.t.lang);
    this.inputs.algorithm.value = ALGORITHMS[0];
    this.start(this.source);
  }

  renderTable() {
    const { t } = this;
    const r = this.outcome.report;
    const { column, descending } = this.sort;
    const value = (k) => (column === 'key' ? k.key : column === 'share' ? k.limited / k.requests : k[column]);
    const rows = [...r.byKey].sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      const order = typeof x === 'string' ? x.localeCompare(y) : x - y;
      return (descending ? -order : order) || a.key.localeCompare(b.key);
    }).slice(0, ROWS);
    const head = COLUMNS.map((name) => {
      const sorted = name === column;
      return el('th', { scope: 'col', 'aria-sort': sorted ? (descending ? 'descending' : 'ascending') : 'none' }, [
        el('button', { type: 'button', class: 'tr-sort', 'data-column': name, onclick: () => {
          this.sort = { column: name, descending: sorted ? !descending : name !== 'key' };
          this.renderTable();
          this.tableWrap.querySelector(`[data-column="${name}"]`).focus();
        } }, t(`table.${name}`)),
      ]);
    });
    const body = rows.map((k) => el('tr', { 'data-key': k.key, 'data-requests': k.requests, 'data-limited': k.limited }, [
      // The timeline's button goes with the key, not in a column of its own: on a phone the four
      // columns then fit, the button under the key.
      el('th', { scope: 'row', class: 'tr-key' }, el('div', { class: 'tr-key-cell' }, [
        // A key comes from the log: shown cut, a character that would reorder the row as its code.
        el('span', { class: 'tr-key-text' }, cut(k.key)), ' ',
        el('button', { type: 'button', class: 'tr-follow', 'aria-label': t('table.followKey', { key: cut(k.key) }), onclick: () => this.follow(k.key) }, t('table.follow')),
      ])),
      el('td', {}, t.number(k.requests)),
      el('td', {}, t.number(k.limited)),
      el('td', {}, this.share(k.limited, k.requests)),
    ]));
    const captionId = uid('tr-caption');
    const note = r.byKey.length > ROWS ? [el('p', { class: 'tr-note' }, t('table.shown', { shown: ROWS, keys: r.keys }))] : [];
    this.tableWrap.replaceChildren(
      el('div', { class: 'table-wrap', role: 'region', 'aria-labelledby': captionId, tabindex: '0' }, el('table', { class: 'tr-table' }, [
        el('caption', { id: captionId }, t('table.caption')),
        el('thead', {}, el('tr', {}, head)),
        el('tbody', {}, body),
      ])),
      ...note,
    );
  }

  renderTimeline() {
    const { t } = this;
    const trace = this.outcome.trace;
    if (!trace) return this.timeline.replaceChildren();
    const span = trace.admitted.length * trace.barSeconds;
    const limited = trace.limited.reduce((sum, n) => sum + n, 0);
    const caption = t('timeline.caption', { count: trace.requests, span: `${t.number(span)} s`, bar: trace.barSeconds, limited });
    // Not a live region: a replay's own notice, on the diagram it takes the reader to, says it.
    this.playNote = el('p', { class: 'tr-play-note' });
    const chart = el('div', { class: 'tr-chart-box' });
    this.timeline.replaceChildren(
      el('h3', { class: 'tr-subtitle', tabindex: '-1' }, t('timeline.title', { key: trace.key })),
      chart,
      el('p', { class: 'tr-note' }, caption),
      ...(trace.scenario ? [el('button', { type: 'button', class: 'lab-play tr-play', onclick: () => this.play(trace) }, t('timeline.play', { key: trace.key }))] : []),
      this.playNote,
    );
    this.fit(chart, (size) => timelineChart(trace, caption, size));
  }

  /**
   * Draws `draw({ width, font })`'s chart into `box` at the box's width in CSS px, its labels at
   * CHART_FONT of the box's text, and again whenever that width changes (a phone turned, a window
   * resized): drawn for its width, a chart's labels keep their size on every screen.
   */
  fit(box, draw) {
    this.charts ??= new Map();
    // Redrawn in the next frame, not in the observer's callback: the new drawing's height would
    // change the box again within the same frame.
    this.resizer ??= new ResizeObserver((entries) => requestAnimationFrame(() => {
      for (const { target } of entries) this.paint(target);
    }));
    for (const old of this.charts.keys()) {
      if (!old.isConnected) {
        this.resizer.unobserve(old);
        this.charts.delete(old);
      }
    }
    this.charts.set(box, { draw, width: 0 });
    this.paint(box);
    this.resizer.observe(box);
  }

  paint(box) {
    const chart = this.charts?.get(box);
    const width = Math.floor(box.clientWidth);
    // Not laid out (hidden), or drawn at this width already.
    if (!chart || !box.isConnected || !width || width === chart.width) return;
    chart.width = width;
    const font = Math.round(parseFloat(getComputedStyle(box).fontSize) * CHART_FONT * 10) / 10;
    box.replaceChildren(chart.draw({ width: Math.max(CHART_MIN_WIDTH, width), font }));
  }

  play(trace) {
    const { t } = this;
    const diagram = window.bucketlab?.diagram;
    if (!diagram) {
      // Nothing else says it: an alert, where the reader is.
      this.playNote.setAttribute('role', 'alert');
      this.playNote.textContent = t('timeline.noDiagram');
      return;
    }
    diagram.playScenario(trace.scenario);
    // The sentence carries an <a> mark, the diagram's link: built as elements, never as HTML. The
    // key, from the log, goes in after the marks are found (a key may hold "<a>" itself).
    const KEY = '\u{e000}';
    const said = trace.scenarioRequests < trace.requests
      ? t('timeline.played', { key: KEY, count: trace.scenarioRequests, requests: trace.requests })
      : t('timeline.playedAll', { key: KEY, count: trace.requests });
    const text = (piece) => piece.replaceAll(KEY, cut(trace.key));
    this.playNote.replaceChildren(...said.split(/<\/?a>/).map((piece, i) => (i % 2 ? el('a', { href: '#diagrama' }, text(piece)) : text(piece))));
    // The diagram is far above: the page takes the reader there, at the replay's start.
    document.dispatchEvent(new CustomEvent('bucketlab:replayed'));
  }

  curveFigure(point, recommended) {
    const { t } = this;
    const curves = this.outcome.curves;
    const label = t('curve.caption', { label: t(recommended ? 'curve.pointRecommended' : 'curve.pointChosen') });
    const shown = { capacity: point.capacity, refillRate: Math.max(point.refillRate, curves.rates[0]) };
    const names = { median: t('curve.median'), p95: t('curve.p95'), p99: t('curve.p99'), heaviest: t('curve.heaviest', { key: curves.heaviest?.[0] ?? '' }) };
    // Drawn once the figure is in the page, at its width (drawCurve).
    this.curveBox = el('div', { class: 'tr-chart-box' });
    // The drawing is named by the title alone: the figure's caption, read with it, says the rest.
    this.drawCurve = () => this.fit(this.curveBox, (size) => curveChart(curves, shown, { rate: t('curve.rate'), burst: t('curve.burst') }, t('curve.title'), (v) => t.number(v), size));
    return el('figure', { class: 'tr-figure' }, [
      el('h3', { class: 'tr-subtitle' }, t('curve.title')),
      this.curveBox,
      el('ul', { class: 'tr-legend' }, Object.entries(names).map(([id, name]) => el('li', { class: `tr-legend--${id}` }, name))),
      el('figcaption', { class: 'tr-note' }, `${label} ${t('curve.point', { b: t.number(point.capacity), r: t.number(point.refillRate) })}`),
      this.curveData(names),
    ]);
  }

  /**
   * The curve's values as a table, for a reader who can't see the lines (and anyone who wants the
   * figures): at the grid's round rates (1, 2 and 5 in each decade), each series' burst.
   */
  curveData(names) {
    const { t } = this;
    const curves = this.outcome.curves;
    const series = curveSeries(curves).filter(([, values]) => values.length);
    const round = (r) => [1, 2, 5].includes(Math.round((r / 10 ** Math.floor(Math.log10(r) + 1e-9)) * 1000) / 1000);
    const rows = curves.rates.flatMap((rate, i) => (round(rate) ? [el('tr', {}, [
      el('th', { scope: 'row' }, t.number(rate)),
      ...series.map(([, values]) => el('td', {}, t.number(values[i], 2))),
    ])] : []));
    // Scrolled sideways on a phone: a region the keyboard reaches, named by the summary.
    const summary = 'tr-curve-data';
    return el('details', { class: 'tr-data' }, [
      el('summary', { id: summary }, t('curve.data')),
      el('div', { class: 'table-wrap', role: 'region', 'aria-labelledby': summary, tabindex: '0' }, el('table', { class: 'tr-data-table' }, [
        el('thead', {}, el('tr', {}, [el('th', { scope: 'col' }, t('curve.rate')), ...series.map(([id]) => el('th', { scope: 'col' }, names[id]))])),
        el('tbody', {}, rows),
      ])),
    ]);
  }

  exportsPart() {
    const { t } = this;
    // The sentences carry <code> marks: built as elements, never as HTML.
    const withCode = (node, text) => {
      for (const [i, piece] of text.split(/<\/?code>/).entries()) node.append(i % 2 ? el('code', {}, piece) : piece);
      return node;
    };
    return el('div', { class: 'tr-exports' }, [
      el('h3', { class: 'tr-subtitle' }, t('exports.title')),
      withCode(el('p', { class: 'tr-export-intro' }), t('exports.intro')),
      ...this.outcome.exports.map((x) => {
        const note = withCode(el('p', { class: 'tr-export-note' }), t(`exports.${x.id}`));
        const name = t(`exports.names.${x.id}`);
        // Where the tool cannot write the policy exactly, or at all (no text then): the core's caveats.
        const caveats = x.caveats.map((c) => el('p', { class: 'tr-export-caveat', 'data-caveat': c.code }, t('exports.caveat', { detail: this.caveat(c) })));
        if (x.text === null) {
          return el('div', { class: 'tr-export tr-export--none', 'data-export': x.id }, [el('div', { class: 'tr-export-head' }, el('h4', { class: 'tr-export-name' }, name)), ...caveats]);
        }
        // Each "Copy" is told apart by its file's name (as the lesson's code blocks by their captions),
        // and the file, scrollable, is a region named so too.
        const heading = `tr-export-${x.id}`;
        const copy = el('button', { type: 'button', class: 'tr-copy', 'aria-describedby': heading, 'data-copy-text': '', 'data-copy-name': name, 'data-copied': t('exports.copied') }, t('exports.copy'));
        const head = el('div', { class: 'tr-export-head' }, [el('h4', { class: 'tr-export-name', id: heading }, name), copy, el('span', { class: 'copy-feedback', 'aria-hidden': 'true' })]);
        wireCopyButton(copy, () => x.text);
        const file = el('pre', { tabindex: '0', role: 'region', 'aria-labelledby': heading, class: 'tr-export-text' }, el('code', {}, x.text));
        return el('div', { class: 'tr-export', 'data-export': x.id }, [head, note, ...caveats, file]);
      }),
    ]);
  }
}
