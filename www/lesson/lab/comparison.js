// The comparison widget: one traffic pattern through all seven limiters (simulate() in wasm, one
// call), drawn as lanes on one time axis, with play / pause / step and seed controls.
import { el, markInvalid, revealBelow, uid } from './dom.js';
import { refusal } from '../../i18n/refusal.js';
import { cut } from '../../i18n/translate.js';
import { NUMBER_FIELD, fieldNumber, fieldText, readings, unreadable } from '../../i18n/typed-number.js';
import { LaneChart } from './chart.js';
import { PATTERN_FIELDS } from './patterns.js';
import { checkChanges, checkOneOf, throwRefusal } from '../checks.js';
import { labLinkValue, MAX_LAB_CHARS, readLabLink } from './link.js';
import { wireCopyButton } from '../copy.js';

export const ALGORITHMS = ['fixedWindow', 'slidingLog', 'slidingCounter', 'leakyQueue', 'leakyMeter', 'gcra', 'tokenBucket'];
/** The most requests the lanes draw (each lane draws one mark per request). */
const MAX_DRAWN = 3000;

export const DEFAULTS = {
  pattern: 'windowEdge', rate: 15, size: 25, every: 2, from: 0, to: 30,
  timestamps: [0.2, 0.4, 0.45, 0.5, 0.55, 1.5], limit: 10, window: 1, duration: 2.5, seed: 1,
};

export class Comparison {
  constructor(root, { simulate, t, linkTo }) {
    Object.assign(this, { root, simulate, t, linkTo });
    this.state = { ...DEFAULTS };
    this.chart = null;
    this.render();
  }

  setLang(t) {
    this.t = t;
    this.render();
  }

  /**
   * Sets any of the DEFAULTS' fields and runs; returns the error message or null. `say`: the
   * lanes' totals are said, as after Apply ("Try this" set-ups).
   */
  setup(changes, { play = false, say = false } = {}) {
    this.said.textContent = '';
    const error = this.#run({ ...this.state, ...changes });
    if (!error) {
      this.#syncForm();
      if (say) this.#sayTotals();
      if (play) this.chart.play();
    }
    return error;
  }

  /**
   * Runs again the settings of another page's lanes (the `settings` of its handle): only this
   * form's fields, each of its own type, go through; a value the core refuses is shown as a typed
   * one would be. Returns the error message or null.
   */
  restore(settings) {
    if (!settings || typeof settings !== 'object') return null;
    const changes = {};
    for (const [name, value] of Object.entries(settings)) {
      const ok = name === 'pattern' ? Object.hasOwn(PATTERN_FIELDS, value)
        : name === 'timestamps' ? typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'number'))
          : Object.hasOwn(DEFAULTS, name) && typeof value === 'number';
      if (ok) changes[name] = value;
    }
    const error = this.setup(changes);
    // Refused: the form shows what was refused, beside the error, as if typed, and the next page
    // gets it again rather than this one's defaults, until the reader runs something here.
    this.refused = error ? { ...this.state, ...changes } : null;
    if (error) {
      for (const [name, value] of Object.entries(changes)) this.inputs[name].value = this.#shown(name, value);
      this.#showFields();
    }
    return error;
  }

  /**
   * Runs the lanes of a lab link (its value: www/lesson/lab/link.js). A link of the wrong shape is
   * said in the lab's error line, naming what it gave and what is allowed, and the lanes stay as
   * they are; its values then go through as the other page's do (restore). Returns the error or null.
   */
  openLink(text) {
    const { settings, problem } = readLabLink(text);
    if (settings) {
      const error = this.restore(settings);
      // Until the reader runs lanes of their own (the next run clears it).
      if (!error) this.openedLink = text;
      return error;
    }
    const [key, values] = problem;
    const message = this.t('controls.linkError.whole', { problem: this.t(`controls.linkError.${key}`, { ...values, given: cut(values.given ?? '') }) });
    this.error.textContent = message;
    return message;
  }

  /**
   * The settings of the lanes shown, a pasted list as the times read from it (an English 1.250 is
   * 1.25 s, which a Portuguese page or a link must not read as a thousand).
   */
  #shownSettings() {
    const pasted = this.state.pattern === 'pasted' && this.result ? { timestamps: Array.from(this.result.arrivals) } : {};
    return { ...this.state, ...pasted };
  }

  /** The address of a link to the lanes shown (not the form's edits not yet applied). */
  #linkAddress() {
    const value = labLinkValue(this.#shownSettings());
    if (value.length > MAX_LAB_CHARS) {
      const message = this.t('controls.linkTooLong', { length: value.length, max: MAX_LAB_CHARS });
      throw Object.assign(new Error(message), { localized: message });
    }
    return this.linkTo(value);
  }

  get handle() {
    const self = this;
    return {
      // The form's refusal is thrown, as every other handle's; a field it does not have is refused.
      setup: (changes, options) => {
        checkChanges('changes', changes, Object.keys(DEFAULTS));
        if (Object.hasOwn(changes, 'pattern')) checkOneOf('pattern', changes.pattern, Object.keys(PATTERN_FIELDS));
        throwRefusal(self.setup(changes, options));
      },
      play: () => self.chart?.play(),
      pause: () => self.chart?.pause(),
      step: (seconds) => self.chart?.step(seconds),
      seek: (time) => self.chart?.seek(time),
      get time() { return self.chart?.time ?? 0; },
      get playing() { return self.chart?.playing ?? false; },
      get result() { return self.result; },
      /**
       * What the lanes now run, as `setup` takes it: a pasted list as the times read from it, which
       * another language's page writes its own way (1.250 is 1.25 here, a thousand in Portuguese).
       */
      /** The lab link's value whose lanes are shown, as it came, or null once others ran. */
      get openedLink() { return self.openedLink ?? null; },
      get settings() {
        return self.refused ? { ...self.refused } : self.#shownSettings();
      },
    };
  }

  render() {
    const { t } = this;
    const time = this.chart?.time;
    this.chart?.destroy();
    this.chart = null;
    this.inputs = {};
    const field = (name) => {
      const id = uid(`lab-${name}`);
      const input = name === 'timestamps'
        ? el('textarea', { id, rows: 4, spellcheck: 'false' })
        : el('input', { id, ...NUMBER_FIELD });
      input.value = this.#shown(name);
      this.inputs[name] = input;
      return el('div', { class: `lab-field lab-field--${name}` }, [el('label', { for: id }, t(`controls.${name}`)), input]);
    };
    const patternId = uid('lab-pattern');
    const select = el('select', { id: patternId, class: 'lab-pattern' },
      Object.keys(PATTERN_FIELDS).map((p) => el('option', { value: p }, t(`controls.patterns.${p}`))));
    select.value = this.state.pattern;
    select.addEventListener('change', () => this.#showFields());
    this.inputs.pattern = select;
    this.error = el('p', { class: 'lab-error', role: 'alert', id: uid('lab-error') });
    // What Apply or New seed changed, said once: the lanes redraw in silence otherwise.
    this.said = el('p', { class: 'sr-only', 'aria-live': 'polite' });
    this.timeText = el('output', { class: 'lab-time', 'aria-live': 'off' });
    this.playButton = el('button', { type: 'button', class: 'lab-play', onclick: () => this.#toggle() });
    this.quotaText = el('p', { class: 'lab-quota' });
    // "Copy a link to these lanes", where the page can make one (the lesson's address).
    const copyLink = this.linkTo && el('button', {
      type: 'button', class: 'lab-copy-link', 'data-copy-name': t('controls.linkName'), 'data-copied': t('controls.linkCopied'),
    }, t('controls.copyLink'));
    const form = el('form', { class: 'lab-form', novalidate: true, onsubmit: (e) => { e.preventDefault(); this.#apply(); } }, [
      el('div', { class: 'lab-field lab-field--pattern' }, [el('label', { for: patternId }, t('controls.pattern')), select]),
      field('rate'),
      field('size'),
      field('every'),
      field('from'),
      field('to'),
      field('timestamps'),
      field('limit'),
      field('window'),
      field('duration'),
      field('seed'),
      el('div', { class: 'lab-buttons' }, [
        el('button', { type: 'submit', class: 'lab-apply' }, t('controls.run')),
        el('button', { type: 'button', class: 'lab-new-seed', onclick: () => this.#newSeed() }, t('controls.newSeed')),
        ...(copyLink ? [copyLink, el('span', { class: 'copy-feedback', 'aria-hidden': 'true' })] : []),
      ]),
    ]);
    // Wired once beside its feedback line.
    if (copyLink) wireCopyButton(copyLink, () => this.#linkAddress());
    const player = el('div', { class: 'lab-player' }, [
      this.playButton,
      el('button', { type: 'button', class: 'lab-step', onclick: () => { this.chart?.step(0.1); this.#sayMoment(); } }, t('controls.step')),
      el('button', { type: 'button', class: 'lab-restart', onclick: () => { this.chart?.pause(); this.chart?.seek(0); this.#sayMoment(); } }, t('controls.restart')),
      this.timeText,
    ]);
    const legend = el('ul', { class: 'lab-legend' }, [
      el('li', { class: 'lab-legend-ok' }, t('legend.admitted')),
      el('li', { class: 'lab-legend-delay' }, t('legend.delayed')),
      el('li', { class: 'lab-legend-deny' }, t('legend.denied')),
      el('li', { class: 'lab-legend-load' }, t('legend.load')),
      el('li', { class: 'lab-legend-peak' }, t('legend.peak')),
    ]);
    this.lanes = el('div', { class: 'lab-lanes' });
    this.root.replaceChildren(form, this.error, this.said, this.quotaText, player, legend, this.lanes);
    this.#showFields();
    this.#run(this.state);
    if (time !== undefined) this.chart?.seek(time);
  }

  /**
   * Why a duration fits no window-edge attack, after the refusal that gives its least value (the
   * core's bound: the first attack whole), or nothing: ` The attack …`.
   */
  #why(next, problem) {
    if (next.pattern !== 'windowEdge' || problem?.field !== 'duration' || problem.min === undefined) return '';
    return ` ${this.t('controls.edgeTooShort', { window: next.window, min: problem.min })}`;
  }

  /**
   * A pasted list's problem (simulate's `problem` with a `code`) in the page's language; a time
   * that is no finite number quoted from its line of `typed` (the list as typed): 1e400, not ∞.
   */
  #pastedError(p, typed) {
    const { t } = this;
    const infinite = typeof p.given === 'number' && !Number.isFinite(p.given) && typeof typed === 'string' && p.line !== undefined;
    const line = infinite ? typed.split(/\r?\n/)[p.line - 1]?.trim() : undefined;
    const problem = t(`controls.pastedError.${p.code}`, line ? { ...p, given: cut(line) } : p);
    const label = t('controls.patterns.pasted');
    if (p.line !== undefined) return t('controls.pastedError.at', { label, line: p.line, problem });
    if (p.index !== undefined) return t('controls.pastedError.atIndex', { label, index: p.index, problem });
    return t('controls.pastedError.whole', { label, problem });
  }

  #showFields() {
    const pattern = this.inputs.pattern.value;
    const wanted = PATTERN_FIELDS[pattern];
    for (const name of ['rate', 'size', 'every', 'from', 'to', 'timestamps']) {
      this.inputs[name].closest('.lab-field').hidden = !wanted.includes(name);
    }
    // Only random traffic draws from the seed: elsewhere "New seed" would redraw the same lanes.
    this.inputs.seed.closest('.lab-field').hidden = pattern !== 'poisson';
    this.root.querySelector('.lab-new-seed').hidden = pattern !== 'poisson';
  }

  #readForm() {
    const next = { ...this.state, pattern: this.inputs.pattern.value };
    for (const [name, input] of Object.entries(this.inputs)) {
      if (name === 'pattern') continue;
      // The pasted list goes to the core as typed; a number field as its number (2,5 or 2.5), NaN
      // for text that is none, which the error then quotes as typed.
      next[name] = name === 'timestamps' ? input.value : fieldNumber(input);
    }
    return next;
  }

  #syncForm() {
    for (const [name, input] of Object.entries(this.inputs)) input.value = this.#shown(name);
    this.#showFields();
  }

  /**
   * The setting `name` as its control shows it: the pattern and a pasted list as they are, a number
   * (one of a list given as numbers, one a line) in the page's style.
   */
  #shown(name, value = this.state[name]) {
    if (Array.isArray(value)) return value.map((time) => fieldText(time, this.t.lang)).join('\n');
    return name === 'timestamps' || name === 'pattern' ? value : fieldText(value, this.t.lang);
  }

  #apply() {
    this.said.textContent = '';
    if (this.#run(this.#readForm()) === null) this.#sayTotals();
    else revealBelow(this.error);
  }

  /** Says what the lanes now hold: the run's totals, lane by lane. */
  #sayTotals() {
    const { t, result, state } = this;
    const count = (lane, outcome) => lane.outcomes.filter((o) => o === outcome).length;
    const list = result.lanes.map((lane) => t('lane.totals', {
      name: t(`names.${lane.algorithm}`), admitted: count(lane, 0), delayed: count(lane, 1), denied: count(lane, 2),
    }));
    this.said.textContent = t('controls.ran', { arrivals: result.arrivals.length, duration: state.duration, list: list.join('; ') });
  }

  #newSeed() {
    const seed = (this.state.seed * 1103515245 + 12345) % 4294967296;
    this.inputs.seed.value = fieldText(seed, this.t.lang);
    this.#apply();
  }

  #toggle() {
    if (!this.chart) return;
    if (this.chart.playing) this.chart.pause();
    else this.chart.play();
  }

  /**
   * The first line of a pasted list that the page's forms would refuse as ambiguous, worded: 1,000
   * (a thousand, or 1 with a decimal comma) and, in Portuguese, 1.000, as every other field
   * refuses them (www/i18n/typed-number.js). The core refuses 1,000 too, but knows no language:
   * a Portuguese 1.000 would be 1 s to it.
   */
  #ambiguousPasted(text) {
    const lines = text.split(/\r?\n/).map((l) => l.trim());
    const why = lines.map((l) => unreadable(l, this.t.lang));
    const line = why.findIndex((w) => w === 'ambiguous' || w === 'ambiguousPoint');
    if (line < 0) return undefined;
    const given = lines[line];
    const problem = this.t(`controls.pastedError.${why[line]}`, { given, ...readings(given, this.t.lang) });
    return this.t('controls.pastedError.at', { label: this.t('controls.patterns.pasted'), line: line + 1, problem });
  }

  /** Runs the simulation for `next`; on an error shows it and keeps the previous lanes. */
  #run(next) {
    const traffic = { pattern: next.pattern };
    for (const name of PATTERN_FIELDS[next.pattern]) traffic[name] = next[name];
    const ambiguous = next.pattern === 'pasted' && typeof next.timestamps === 'string' ? this.#ambiguousPasted(next.timestamps) : undefined;
    if (ambiguous) {
      this.error.textContent = ambiguous;
      markInvalid(Object.entries(this.inputs), 'timestamps', this.error.id);
      return ambiguous;
    }
    let result;
    try {
      result = this.simulate({
        algorithms: ALGORITHMS, traffic, duration: next.duration, seed: next.seed,
        limit: next.limit, window: next.window,
      });
      if (result.arrivals.length > MAX_DRAWN) {
        // Named by what this pattern's fields can change (the attack on the window edge has no rate).
        const fix = this.t(`controls.tooManyFix.${next.pattern}`);
        throw new Error(this.t('controls.tooMany', { n: result.arrivals.length, max: MAX_DRAWN, fix }));
      }
    } catch (error) {
      // The core's field (`traffic.rate`) is the form's field `rate`, named by its label.
      const name = (field) => field.replace(/^traffic\./, '');
      const label = (field) => (typeof this.t.raw(`controls.${name(field)}`) === 'string' ? this.t(`controls.${name(field)}`) : undefined);
      this.error.textContent = error.problem?.code ? this.#pastedError(error.problem, next.timestamps)
        : refusal(error, this.t.lang, label, (field) => this.inputs[name(field)]) + this.#why(next, error.problem);
      markInvalid(Object.entries(this.inputs), error.problem && name(error.problem.field), this.error.id);
      return error.message;
    }
    this.error.textContent = '';
    markInvalid(Object.entries(this.inputs), undefined, this.error.id);
    this.refused = null;
    this.openedLink = null;
    // Told once the caller is done (openLink marks its lanes as the link's after this run).
    queueMicrotask(() => this.root.dispatchEvent(new CustomEvent('bucketlab:lanes', { bubbles: true })));
    this.state = next;
    this.result = result;
    // A slow quota's rate keeps 3 significant digits: 1 a day is r = 0.0000116/s, not 0/s.
    const rate = next.limit / next.window;
    this.quotaText.textContent = this.t('controls.quota', {
      limit: next.limit, window: next.window, double: 2 * next.limit,
      rate: this.t.number(rate, Math.max(3, 2 - Math.floor(Math.log10(rate)))),
    });
    const rows = result.lanes.map((lane) => ({
      key: lane.algorithm,
      name: this.t(`names.${lane.algorithm}`),
      caption: this.t(`captions.${lane.algorithm}`),
      arrivals: result.arrivals,
      outcomes: lane.outcomes,
      delays: lane.delays,
      samples: lane.samples,
      sampleInterval: result.sampleInterval,
      peak: lane.peak,
      peakStart: lane.peakStart,
    }));
    this.chart?.destroy();
    // A new run's lanes: a play of the old ones ended with them, unsaid.
    this.#wasPlaying = false;
    this.chart = new LaneChart({
      t: this.t, duration: next.duration, limit: next.limit, window: next.window, rows,
      onTime: (time) => this.#onTime(time), view: this.#view(result.arrivals, next.duration),
      width: this.lanes.clientWidth,
    });
    this.lanes.replaceChildren(this.chart.element);
    this.#onTime(this.chart.time);
    return null;
  }

  /**
   * On a phone the lanes are a few pixels per 0.1 s: the busiest second (from the whole tenth of a
   * second before it, 1.2 s in all) is drawn instead of the whole run, so a burst's requests stand
   * apart; the chart says so under its axis, and moves the stretch to keep the playhead on it.
   */
  #view(arrivals, duration) {
    const span = 1.2;
    if (this.root.clientWidth >= 480 || duration <= span || arrivals.length === 0) return undefined;
    let best = 0;
    let most = 0;
    for (let i = 0, j = 0; i < arrivals.length; i++) {
      while (arrivals[i] - arrivals[j] > 1) j++;
      if (i - j + 1 > most) [most, best] = [i - j + 1, arrivals[j]];
    }
    const from = Math.min(Math.max(0, Math.floor((best - 0.1) * 10 + 1e-9) / 10), duration - span);
    return { from, to: from + span };
  }

  #onTime(time) {
    this.timeText.textContent = this.t('controls.time', { time: this.t.number(time, 1) });
    const playing = Boolean(this.chart?.playing);
    const label = this.t(playing ? 'controls.pause' : 'controls.play');
    if (this.playButton.textContent !== label) this.playButton.textContent = label;
    // Where playing stopped (its end, or Pause) is said once; playing itself stays quiet.
    if (this.#wasPlaying && !playing) this.#sayMoment();
    this.#wasPlaying = playing;
  }

  /** Whether the lanes were playing when last shown (a stop is said once, see #onTime). */
  #wasPlaying = false;

  /** Says the moment shown and each lane's counts by then (a step, a restart, a stop). */
  #sayMoment() {
    if (!this.chart) return;
    const { t } = this;
    const list = this.chart.tallies.map(({ name, tally: [admitted, delayed, denied] }) => t('lane.totals', { name, admitted, delayed, denied }));
    this.said.textContent = t('controls.moment', { time: this.timeText.textContent, list: list.join('; ') });
  }
}
