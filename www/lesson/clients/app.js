// Mounts the clients section: the lab's wasm module (simulateClients), presets, the settings form,
// the server's histogram with an explicit clock (play, pause, step, a scrubber), metric cards, a
// takeaway computed from the run, "Try this" and a quiz from live runs. A bad setting shows its
// error and keeps the last good run.
import init, { simulateClients } from '../../pkg/bucketlab_lab.js';
import { notLoaded, refusal } from '../../i18n/refusal.js';
import { NUMBER_FIELD, fieldNumber, fieldText } from '../../i18n/typed-number.js';
import tables from '../../i18n/locales/clients.js';
import { langOf, pickLang, translator } from '../../i18n/translate.js';
import { el, markInvalid, revealBelow, uid, reducedMotion } from '../lab/dom.js';
import { checkChanges, checkOneOf, checkSeconds, throwRefusal } from '../checks.js';
import { HERD, POLICIES, PRESETS, figures, policyKey, presetOf, runAll } from './runs.js';
import { Histogram } from './histogram.js';
import { questions, renderQuiz } from './quiz.js';

/** Seconds of real time a whole run takes to play. */
const PLAY_SECONDS = 6;
const NUMBER_FIELDS = ['clients', 'successes', 'spread', 'capacity', 'rate', 'maxAttempts', 'seed'];
const TRY = {
  exactWait: { ...HERD, header: 'exact' },
  hammer: { ...HERD, policy: 'hammer' },
  spread: { ...HERD, spread: 10 },
  ownBuckets: { ...HERD, shared: false },
};

export async function mountClients(root) {
  let t = translator(tables, langOf());
  root.replaceChildren(el('p', { class: 'cl-loading', role: 'status' }, t('loading')));
  try {
    await init();
  } catch (error) {
    root.replaceChildren(el('p', { class: 'cl-error', role: 'alert' }, t('loadFailed', { message: notLoaded(error, t.lang) })));
    throw error;
  }
  const view = new ClientsView(root, t);
  document.addEventListener('bucketlab:langchange', (event) => {
    const lang = pickLang(event.detail?.lang ?? document.documentElement.lang);
    if (lang !== t.lang) view.setLang((t = translator(tables, lang)));
  });
  root.classList.add('cl-ready');
  return view.handle;
}

class ClientsView {
  constructor(root, t) {
    Object.assign(this, { root, t });
    this.state = { ...HERD };
    this.time = 0;
    this.playing = false;
    this.herdRuns = runAll(simulateClients, HERD);
    this.render();
  }

  get handle() {
    const self = this;
    return {
      preset: (id) => { checkOneOf('preset', id, Object.keys(PRESETS)); throwRefusal(self.setup(PRESETS[id])); },
      setup: (changes) => {
        checkChanges('changes', changes, Object.keys(HERD));
        throwRefusal(self.setup({ ...self.state, ...changes }));
      },
      play: () => self.play(),
      pause: () => self.pause({ say: true }),
      // As the buttons do: a step stops at the ends; a moment off the axis is refused, never clamped.
      step: (seconds = 0.1) => { checkSeconds('seconds', seconds, self.end); self.pause(); self.seek(self.time + seconds); },
      seek: (time) => { checkSeconds('time', time, self.end, true); self.pause(); self.seek(time); },
      get time() { return self.time; },
      get end() { return self.end; },
      get playing() { return self.playing; },
      get result() { return self.runs; },
      get lang() { return self.t.lang; },
    };
  }

  setLang(t) {
    this.t = t;
    this.render();
  }

  render() {
    const { t } = this;
    this.pause();
    this.inputs = {};
    const field = (name) => {
      const id = uid(`cl-${name}`);
      const input = el('input', { id, ...NUMBER_FIELD, value: fieldText(this.state[name], t.lang) });
      this.inputs[name] = input;
      return el('div', { class: 'lab-field cl-field' }, [el('label', { for: id }, t(`controls.${name}`)), input]);
    };
    // The policies as radio buttons, each name read whole on its own line where it needs it: a
    // menu shows its chosen name on one line, cut at its width ("Honour Retry-After (whole
    // seconds" on a phone), and no browser lets it wrap.
    const group = uid('cl-policy');
    this.policies = Object.fromEntries(POLICIES.map((p) => {
      const id = uid(`cl-policy-${p}`);
      const input = el('input', { id, type: 'radio', name: group, value: p, onchange: () => this.showJitter() });
      input.checked = p === this.state.policy;
      const label = el('label', { for: id }, t(`policies.${policyKey(p, this.state.header)}`));
      return [p, { input, label, row: el('div', { class: 'cl-choice', 'data-policy': p }, [input, label]) }];
    }));
    const jitterId = uid('cl-jitter');
    this.inputs.jitter = el('input', { id: jitterId, type: 'checkbox' });
    this.inputs.jitter.checked = this.state.jitter;
    // The jitter on top of Retry-After belongs to that policy only: shown under it, when it is chosen.
    const jitterField = el('div', { class: 'lab-field cl-field cl-field--check' }, [this.inputs.jitter, el('label', { for: jitterId }, t('controls.jitter'))]);
    this.showJitter = () => { jitterField.hidden = this.#policy() !== 'retryAfter'; };
    // One bucket for all (the lesson's case) or one per client: "Try this" sets it, so it is shown.
    const ownId = uid('cl-own');
    this.inputs.ownBuckets = el('input', { id: ownId, type: 'checkbox' });
    this.inputs.ownBuckets.checked = this.state.shared === false;
    const ownField = el('div', { class: 'lab-field cl-field cl-field--check' }, [this.inputs.ownBuckets, el('label', { for: ownId }, t('controls.ownBuckets'))]);
    const form = el('form', { class: 'lab-form cl-form', novalidate: true, onsubmit: (e) => {
      e.preventDefault();
      if (this.setup(this.#readForm()) !== null) revealBelow(this.error);
    } }, [
      el('fieldset', { class: 'cl-field--policy' }, [
        el('legend', {}, t('controls.policy')),
        ...POLICIES.flatMap((p) => (p === 'retryAfter' ? [this.policies[p].row, jitterField] : [this.policies[p].row])),
      ]),
      ...NUMBER_FIELDS.map(field),
      ownField,
      el('button', { type: 'submit', class: 'cl-run lab-apply' }, t('controls.run')),
    ]);
    const presets = el('div', { class: 'cl-presets', role: 'group', 'aria-label': t('presets.label') },
      Object.keys(PRESETS).map((id) => el('button', { type: 'button', class: 'cl-preset', 'data-preset': id, onclick: () => {
        // The form fills a phone's screen: the verdict, and the run playing under it, come into view.
        if (this.setup(PRESETS[id], { play: true }) === null) revealBelow(this.takeaway, { from: 0.75, block: 'start' });
      } }, t(`presets.${id}`))));
    this.error = el('p', { class: 'lab-error cl-error', role: 'alert', id: uid('cl-error') });
    this.takeaway = el('p', { class: 'cl-takeaway' });
    this.cards = el('dl', { class: 'cl-cards' });
    this.playButton = el('button', { type: 'button', class: 'cl-play lab-play', onclick: () => (this.playing ? this.pause({ say: true }) : this.play()) });
    const scrubId = uid('cl-scrub');
    this.scrubber = el('input', { id: scrubId, class: 'cl-scrubber', type: 'range', min: 0, step: 0.1, value: 0 });
    // The slider speaks its own value: its pause says nothing.
    this.scrubber.addEventListener('input', () => { this.pause(); this.seek(Number(this.scrubber.value)); });
    // Not a live region (an output is one by default): it changes every frame while playing.
    this.timeText = el('output', { class: 'cl-time', for: scrubId, 'aria-live': 'off' });
    const player = el('div', { class: 'lab-player cl-player' }, [
      this.playButton,
      el('button', { type: 'button', class: 'cl-step', onclick: () => { this.pause(); this.seek(this.time + 0.1); this.#sayMoment(); } }, t('controls.step')),
      el('button', { type: 'button', class: 'cl-restart', onclick: () => { this.pause(); this.seek(0); this.#sayMoment(); } }, t('controls.restart')),
      el('label', { for: scrubId, class: 'cl-scrub-label' }, t('controls.scrubber')),
      this.scrubber,
      this.timeText,
    ]);
    // The moment a step, a restart or a stop reaches, said once (the chart's own text is not live).
    this.said = el('p', { class: 'sr-only', 'aria-live': 'polite' });
    player.append(this.said);
    this.showJitter();
    this.chartRoot = el('div', { class: 'cl-chart' });
    const tryList = el('ul', { class: 'cl-try' }, Object.keys(TRY).map((id) => el('li', {}, el('button', {
      type: 'button', class: 'cl-try-item', 'data-try': id, onclick: () => {
        // The run's words and numbers are above the list: brought into view, as it plays, with
        // the focus (as the lab's set-ups move it to their heading): the button is left a screen
        // below, where a second Enter would run the set-up again unseen.
        if (this.setup(TRY[id], { play: true }) !== null) return;
        this.takeaway.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' });
        this.takeaway.tabIndex = -1;
        this.takeaway.focus({ preventScroll: true });
      },
    }, t(`tryThis.${id}`)))));
    const quizRoot = el('div', { class: 'quiz' });
    renderQuiz(quizRoot, questions(this.herdRuns, t), t);
    this.root.replaceChildren(
      presets, form, this.error, this.takeaway, this.cards, player, this.chartRoot,
      el('h3', { class: 'cl-subtitle' }, t('tryThis.title')), tryList,
      el('h3', { class: 'cl-subtitle' }, t('quiz.title')), quizRoot,
    );
    const time = this.time;
    this.#show(this.runs ?? runAll(simulateClients, this.state));
    this.seek(time);
    // A status only once it holds the first run's takeaway: filled as the part mounts (on the
    // reader's first Tab at the top of the page), it would be spoken there, far from the clients.
    this.takeaway.setAttribute('role', 'status');
    // The new play button's name: "Play" on a first render, its state's after a language change.
    this.#label();
  }

  /** Runs `state`; on a bad setting shows the error and keeps the last good run. Returns the error message or null. */
  setup(state, { play = false } = {}) {
    let runs;
    try {
      runs = runAll(simulateClients, state);
    } catch (error) {
      // The core's field (`policy.wait`) is the form's field `wait`, named by its label.
      const name = (field) => field.replace(/^policy\./, '');
      const label = (field) => (typeof this.t.raw(`controls.${name(field)}`) === 'string' ? this.t(`controls.${name(field)}`) : undefined);
      this.error.textContent = this.t('errorKept', { reason: refusal(error, this.t.lang, label, (field) => this.inputs[name(field)]) });
      markInvalid(Object.entries(this.inputs), error.problem && name(error.problem.field), this.error.id);
      return error.message;
    }
    markInvalid(Object.entries(this.inputs), undefined, this.error.id);
    this.state = { ...state };
    this.#syncForm();
    this.pause();
    this.#show(runs);
    this.seek(0);
    // A preset or a Try this plays its run; under reduced motion it shows the run's end instead
    // (the Play button, pressed, still plays, as the lab's does).
    if (play && reducedMotion()) this.seek(this.end);
    else if (play) this.play();
    return null;
  }

  /** The policy chosen in the form. */
  #policy() {
    return POLICIES.find((p) => this.policies[p].input.checked) ?? this.state.policy;
  }

  /**
   * The form's settings; an empty number field is `undefined`, which simulateClients refuses as
   * missing, and one whose text is no number NaN, which it refuses and the error quotes as typed.
   */
  #readForm() {
    const next = { ...this.state, policy: this.#policy(), jitter: this.inputs.jitter.checked, shared: !this.inputs.ownBuckets.checked };
    for (const name of NUMBER_FIELDS) next[name] = fieldNumber(this.inputs[name]);
    return next;
  }

  #syncForm() {
    for (const name of NUMBER_FIELDS) this.inputs[name].value = fieldText(this.state[name], this.t.lang);
    for (const [p, { input, label }] of Object.entries(this.policies)) {
      input.checked = p === this.state.policy;
      label.textContent = this.t(`policies.${policyKey(p, this.state.header)}`);
    }
    this.inputs.jitter.checked = this.state.jitter;
    this.inputs.ownBuckets.checked = this.state.shared === false;
    this.showJitter();
  }

  #show(runs) {
    const { t } = this;
    this.runs = runs;
    this.error.textContent = '';
    const times = runs.main.times;
    this.end = Math.max(1, Math.ceil(((times.at(-1) ?? 0) * 1.1 + 0.1) * 10) / 10);
    this.scrubber.max = String(this.end);
    this.chart = new Histogram(this.chartRoot, { runs, end: this.end, t });
    const f = figures(runs.main.metrics);
    const share = t.percent(f.share / 100, 0);
    const finished = !Number.isNaN(runs.main.metrics.finishMax);
    // Each label with its figure in one grid item (as the floods' cards): as separate items, an
    // odd number of columns (a zoomed window) put a figure under another's label.
    const card = (key, value, label = t(`metrics.${key}`)) => el('div', {}, [el('dt', {}, label), el('dd', { 'data-metric': key }, value)]);
    // The times are the finished clients' only: where some gave up, the label says how many.
    const finishLabel = f.gaveUp > 0 && finished ? t('metrics.finishOf', { count: this.state.clients - f.gaveUp }) : undefined;
    this.cards.replaceChildren(
      card('perSuccess', t.number(f.perSuccess, 1)),
      card('finish', finished ? t('metrics.finishValue', f) : t('metrics.none'), finishLabel),
      card('peak', t.number(f.peak)),
      card('denied', share),
      card('gaveUp', t.number(f.gaveUp)),
    );
    const preset = presetOf(this.state);
    for (const button of this.root.querySelectorAll('.cl-preset')) button.setAttribute('aria-pressed', String(button.dataset.preset === preset));
    if (preset === 'jitter') {
      const herd = figures(runs.herd.metrics);
      this.takeaway.textContent = t('takeaway.jitter', { ...f, herdPerSuccess: herd.perSuccess, herdPeakRetries: herd.peakRetries });
    } else if (preset === 'herd') {
      this.takeaway.textContent = t('takeaway.herd', f);
    } else {
      // Any settings: each count in its own plural entry ("1 attempt per success", "2 attempts").
      this.takeaway.textContent = t('takeaway.custom', {
        ...f, share, perSuccess: t('counts.perSuccess', { count: f.perSuccess }), peak: t('counts.attempts', { count: f.peak }),
      });
      // Clients that start together and wait alike (a fixed wait, or backoff without jitter) come
      // back together: the same waves as the herd, later. Said, or the numbers look like a fault.
      const { policy, spread, shared } = this.state;
      if ((policy === 'fixed' || policy === 'exponential') && spread === 0 && shared) this.takeaway.textContent += ` ${t('takeaway.inStep')}`;
    }
    this.takeaway.dataset.kind = preset ?? 'custom';
  }

  seek(time) {
    this.time = Math.min(Math.max(0, time), this.end);
    this.scrubber.value = String(this.time);
    this.timeText.textContent = this.t('controls.time', { time: Math.round(this.time * 10) / 10, end: this.end });
    this.scrubber.setAttribute('aria-valuetext', this.timeText.textContent);
    this.chart.draw(this.time);
    if (this.time >= this.end) this.pause({ say: true });
  }

  play() {
    if (this.playing || !this.chart) return;
    if (this.time >= this.end) this.seek(0);
    this.playing = true;
    this.#label();
    const speed = this.end / PLAY_SECONDS;
    let last = performance.now();
    const frame = (now) => {
      if (!this.playing) return;
      this.seek(this.time + ((now - last) / 1000) * speed);
      last = now;
      if (this.playing) this.raf = requestAnimationFrame(frame);
    };
    this.raf = requestAnimationFrame(frame);
  }

  /** Stops playing; with `say`, where it stopped is said (Pause pressed, the run's end). */
  pause({ say = false } = {}) {
    const was = this.playing;
    this.playing = false;
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = null;
    this.#label();
    if (was && say) this.#sayMoment();
  }

  #sayMoment() {
    if (this.chart) this.said.textContent = this.t('controls.moment', { time: this.timeText.textContent, summary: this.chart.summary.textContent });
  }

  #label() {
    if (this.playButton) this.playButton.textContent = this.t(this.playing ? 'controls.pause' : 'controls.play');
  }
}
