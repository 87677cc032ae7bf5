// The flood demo: a slider of attacking IPs (1 to 10,000), the layers as switches, a run of
// simulateFlood (in wasm, one call) drawn as the origin's load per second against its capacity,
// cards with the outcomes and a takeaway worded from the run. A bad setting shows its error and
// keeps the last good run.
import { checkChanges, checkOneOf, throwRefusal } from '../checks.js';
import { el, hatch, markInvalid, revealBelow, svg, uid } from '../lab/dom.js';
import { refusal } from '../../i18n/refusal.js';
import { NUMBER_FIELD, fieldNumber, fieldText } from '../../i18n/typed-number.js';
import { pacedRegion } from '../paced.js';

/** The slider's stops: 1 to 10,000 on a roughly logarithmic scale, 100 and 10,000 included. */
export const STOPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
const LAYERS = ['edge', 'perIp', 'global'];

/**
 * `error` as the reader typed the field: the edge's share is typed in percent and checked by the
 * core as a fraction (150 % is 1.5, allowed 0 to 1), so its numbers go back to percent; a field
 * that gave NaN (left empty, or text that is no number) is worded by `refusal` from its text.
 */
function asTyped(error) {
  const problem = error?.problem;
  if (!problem) return error;
  const percent = problem.field === 'edgeShare' ? (v) => (typeof v === 'number' ? Math.round(v * 100 * 1e9) / 1e9 : v) : (v) => v;
  const given = Number.isNaN(problem.given) ? undefined : percent(problem.given);
  return { problem: { ...problem, given, min: percent(problem.min), max: percent(problem.max) } };
}
/** A rate for "about …": whole requests a second, or tenths under 10 (one IP's 0.1, not 0). */
const roughRate = (perSecond) => (perSecond < 10 ? Math.round(perSecond * 10) / 10 : Math.round(perSecond));

const PRESETS = {
  abuser: { attackers: 1, attackRate: 50, edgeShare: 90, layers: { edge: false, perIp: true, global: false } },
  flood: { attackers: 10000, attackRate: 1, edgeShare: 90, layers: { edge: false, perIp: true, global: false } },
  // An edge that absorbs 99% (as scrubbing does): what passes fits under the global bucket, which
  // stays in reserve; at 90% it would pass 1,000/s, more than the bucket admits, and users pay.
  depth: { attackers: 10000, attackRate: 1, edgeShare: 99, layers: { edge: true, perIp: true, global: true } },
};
const DEFAULT = { attackers: 100, attackRate: 1, edgeShare: 90, layers: { edge: false, perIp: true, global: false } };
const W = 600;
const H = 240;
// The top is the capacity label's band: above the columns, which a flood takes past the line (the
// label drawn on the line was covered by them).
const PAD = { left: 8, right: 8, top: 40, bottom: 22 };
/** The capacity label's baseline, in the band above the columns. */
const LABEL_Y = 24;

export class FloodDemo {
  constructor(root, { simulateFlood, t }) {
    Object.assign(this, { root, simulateFlood, t });
    this.state = structuredClone(DEFAULT);
    this.run = this.#simulate(this.state);
    this.render();
  }

  get handle() {
    const self = this;
    return {
      setup: (changes) => {
        checkChanges('changes', changes, Object.keys(DEFAULT));
        if (Object.hasOwn(changes, 'layers')) checkChanges('changes.layers', changes.layers, Object.keys(DEFAULT.layers));
        throwRefusal(self.setup(changes));
      },
      preset: (id) => { checkOneOf('preset', id, Object.keys(PRESETS)); throwRefusal(self.setup(PRESETS[id])); },
      get state() { return structuredClone(self.state); },
      get result() { return self.run; },
    };
  }

  setLang(t) {
    this.t = t;
    this.render();
  }

  #simulate(state) {
    return this.simulateFlood({
      attackers: state.attackers, attackRate: state.attackRate, edgeShare: state.edgeShare / 100,
      layers: state.layers, seed: 1,
    });
  }

  /** Applies `changes` (any of DEFAULT's fields; `layers` may be partial); returns the error message or null. */
  setup(changes) {
    const next = { ...this.state, ...changes, layers: { ...this.state.layers, ...changes.layers } };
    try {
      this.run = this.#simulate(next);
    } catch (error) {
      const label = (field) => (typeof this.t.raw(`demo.${field}`) === 'string' ? this.t(`demo.${field}`) : undefined);
      const input = (field) => ({ attackRate: this.rate.input, edgeShare: this.share.input })[field];
      this.error.textContent = this.t('errorKept', { reason: refusal(asTyped(error), this.t.lang, label, input) });
      markInvalid([['attackRate', this.rate.input], ['edgeShare', this.share.input]], error.problem?.field, this.error.id);
      return error.message;
    }
    this.state = next;
    this.error.textContent = '';
    markInvalid([['attackRate', this.rate.input], ['edgeShare', this.share.input]], undefined, this.error.id);
    this.#sync();
    this.#show();
    return null;
  }

  render() {
    const { t } = this;
    const run = this.run;
    const sliderId = uid('df-attackers');
    this.slider = el('input', {
      id: sliderId, class: 'df-slider', type: 'range', min: 0, max: STOPS.length - 1, step: 1,
    });
    this.slider.addEventListener('input', () => this.setup({ attackers: STOPS[Number(this.slider.value)] }));
    this.sliderValue = el('output', { class: 'df-slider-value', for: sliderId, 'aria-live': 'off' });
    const number = (name) => {
      const id = uid(`df-${name}`);
      const input = el('input', { id, ...NUMBER_FIELD });
      input.addEventListener('change', () => this.setup({ [name]: fieldNumber(input) }));
      return { input, field: el('div', { class: `lab-field df-field--${name}` }, [el('label', { for: id }, t(`demo.${name}`)), input]) };
    };
    this.rate = number('attackRate');
    this.share = number('edgeShare');
    this.checks = Object.fromEntries(LAYERS.map((layer) => {
      const id = uid(`df-layer-${layer}`);
      const input = el('input', { id, type: 'checkbox', 'data-layer': layer });
      input.addEventListener('change', () => this.setup({ layers: { [layer]: input.checked } }));
      const words = layer === 'perIp' ? { b: run.ipCapacity, r: run.ipRate } : { b: run.globalCapacity, r: run.globalRate };
      return [layer, { input, row: el('div', { class: 'df-layer' }, [input, el('label', { for: id }, t(`demo.layer.${layer}`, words))]) }];
    }));
    const presets = el('div', { class: 'df-presets', role: 'group', 'aria-label': t('demo.presets') },
      Object.keys(PRESETS).map((id) => el('button', { type: 'button', class: 'df-preset', 'data-preset': id, onclick: () => {
        // The controls fill a phone's screen: the verdict the preset changed comes into view.
        if (this.setup(PRESETS[id]) === null) revealBelow(this.takeaway, { from: 0.75 });
      } }, t(`demo.preset.${id}`))));
    this.error = el('p', { class: 'lab-error df-error', role: 'alert', id: uid('df-error') });
    // The takeaway changes with every setting as it is shown; a screen reader hears it at its
    // own pace (a slider's arrow keys would queue a long sentence each), from a copy of its own.
    this.takeaway = el('p', { class: 'df-takeaway cl-takeaway' });
    const spoken = el('p', { class: 'df-spoken sr-only', 'aria-live': 'polite' });
    this.cards = el('dl', { class: 'df-cards' });
    this.chart = el('figure', { class: 'df-chart' });
    const form = el('form', { class: 'lab-form df-form', novalidate: true, onsubmit: (e) => e.preventDefault() }, [
      el('div', { class: 'lab-field df-field--attackers' }, [
        el('label', { for: sliderId }, t('demo.attackers')), el('div', { class: 'df-slider-row' }, [this.slider, this.sliderValue]),
      ]),
      this.rate.field,
      this.share.field,
      el('fieldset', { class: 'df-layers-choice' }, [el('legend', {}, t('demo.layers')), ...LAYERS.map((l) => this.checks[l].row)]),
    ]);
    this.root.replaceChildren(presets, form, this.error, this.takeaway, spoken, this.cards, this.chart);
    this.#sync();
    this.#show();
    // From the reader's first change on (the first takeaway is read with the part).
    this.spoken = pacedRegion(spoken);
  }

  #sync() {
    const { state, t } = this;
    const stop = STOPS.indexOf(state.attackers);
    this.slider.value = String(stop >= 0 ? stop : STOPS.findIndex((s) => s >= state.attackers));
    const valueText = t('demo.attackersValue', { count: state.attackers });
    this.slider.setAttribute('aria-valuetext', valueText);
    this.sliderValue.textContent = valueText;
    this.rate.input.value = fieldText(state.attackRate, this.t.lang);
    this.share.input.value = fieldText(state.edgeShare, this.t.lang);
    for (const layer of LAYERS) this.checks[layer].input.checked = state.layers[layer];
    this.share.field.hidden = !state.layers.edge;
    const preset = Object.keys(PRESETS).find((id) => JSON.stringify(PRESETS[id]) === JSON.stringify(state));
    for (const button of this.root.querySelectorAll('.df-preset')) button.setAttribute('aria-pressed', String(button.dataset.preset === preset));
  }

  #show() {
    const { t, run, state } = this;
    const s = run.summary;
    const capacity = run.originCapacity;
    const mean = Math.round(s.originMean);
    const card = (key, value, text) => el('div', {}, [el('dt', {}, t(`demo.cards.${key}`)), el('dd', { 'data-metric': key, 'data-value': value }, text)]);
    this.cards.replaceChildren(
      card('peak', s.originPeak, t('demo.cards.peakValue', { peak: s.originPeak, capacity })),
      card('mean', mean, t('demo.cards.meanValue', { mean })),
      card('over', s.secondsOverCapacity, t.number(s.secondsOverCapacity)),
      card('ipsLimited', s.attackersLimited, t('demo.cards.ipsLimitedValue', { limited: s.attackersLimited, total: state.attackers })),
      card('usersLimited', s.usersLimited, t('demo.cards.usersLimitedValue', { users: s.usersLimited, total: run.users, percent: t.percent(s.usersLimited / run.users) })),
      card('userShares', `${s.userLimitedShare} ${s.userFailedShare}`, t('demo.cards.userSharesValue', { limited: t.percent(s.userLimitedShare), failed: t.percent(s.userFailedShare) })),
      card('edge', s.edgeDropped, t.number(s.edgeDropped)),
      card('global', s.globalLimited, t.number(s.globalLimited)),
    );
    const words = {
      peak: s.originPeak, capacity, limited: s.attackersLimited, total: state.attackers, failed: t.percent(s.userFailedShare),
      passed: s.floodRequests - s.edgeDropped - s.ipLimited, edge: s.edgeDropped, rate: run.globalRate,
      // The flood's rate past the edge, as set (the arrivals around it are random).
      through: roughRate(state.attackers * state.attackRate * (1 - state.edgeShare / 100)),
    };
    const { edge, global, perIp } = state.layers;
    let kind = 'calm';
    // Over capacity: with no bucket at all, with no IP refused by its own bucket, or with some
    // refused and the flood still too much (25 requests/s from each of 100 IPs).
    if (s.secondsOverCapacity > 0) kind = !perIp && !global ? 'overloadUnlimited' : s.attackersLimited > 0 ? 'overloadLimited' : 'overload';
    // One abusive client, or a distributed flood whose IPs their own buckets held back.
    else if (s.attackersLimited > 0 && s.usersLimited === 0) kind = state.attackers === 1 ? 'abuser' : 'attackers';
    else if (s.usersLimited > 0) kind = edge ? 'depth' : 'globalHurts';
    // All layers stacked and nobody refused: say what each one did, the global bucket in reserve.
    else if (edge && global && s.edgeDropped > 0) kind = 'depthHolds';
    // The count the sentence agrees with: the attack's refused requests, or the users refused.
    if (kind === 'abuser' || kind === 'attackers') words.count = s.ipLimited;
    if (kind === 'globalHurts' || kind === 'depth') Object.assign(words, { total: run.users, count: s.usersLimited });
    let text = t(`demo.takeaway.${kind}`, words);
    // The global bucket in reserve, said only when this run shows it: an edge that absorbs more
    // than 90%, and a flood whose tenth would, with the users' requests, be more than it admits.
    const usersRate = s.userRequests / run.duration;
    if (kind === 'depthHolds' && state.edgeShare > 90 && state.attackers * state.attackRate * 0.1 + usersRate > run.globalRate) {
      text += ` ${t('demo.takeaway.depthReserve')}`;
    }
    this.takeaway.textContent = text;
    this.takeaway.dataset.kind = kind;
    this.spoken?.say(this.takeaway.textContent);
    this.#draw();
  }

  /** Columns of the origin's load per second (served, then timed out) and the capacity line. */
  #draw() {
    const { t, run } = this;
    const { origin, served } = run.seconds;
    const capacity = run.originCapacity;
    const top = Math.max(capacity, ...origin) * 1.08;
    const y = (v) => H - PAD.bottom - ((H - PAD.top - PAD.bottom) * v) / top;
    const step = (W - PAD.left - PAD.right) / origin.length;
    const titleId = uid('df-chart-title');
    const descId = uid('df-chart-desc');
    // Timed out striped, served solid: two series apart in grey too.
    const [defs, striped] = hatch('df-failed-stripes');
    const columns = Array.from(origin, (load, i) => {
      const x = PAD.left + i * step + step * 0.15;
      const width = step * 0.7;
      return svg('g', { 'data-second': i }, [
        svg('rect', { class: 'df-served', x, width, y: y(served[i]), height: y(0) - y(served[i]) }),
        svg('rect', { class: 'df-failed', fill: striped, x, width, y: y(load), height: y(served[i]) - y(load) }),
        svg('text', { class: 'df-tick', x: x + width / 2, y: H - 6, 'text-anchor': 'middle' }, String(i)),
      ]);
    });
    const line = y(capacity);
    const image = svg('svg', { class: 'df-svg', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': `${titleId} ${descId}` }, [
      svg('title', { id: titleId }, t('demo.chartTitle')),
      svg('desc', { id: descId }, t('demo.chartDesc', { capacity, peak: run.summary.originPeak, mean: Math.round(run.summary.originMean) })),
      defs,
      svg('rect', { class: 'df-track', x: 0, y: 0, width: W, height: H, rx: 6 }),
      ...columns,
      // The line runs across the columns and, past the last one, up to its label in the band above
      // them: at the right edge, where no column is.
      svg('path', { class: 'df-capacity', d: `M${PAD.left} ${line} H${W - 4} V${LABEL_Y - 6} H${W - 10}` }),
      svg('text', { class: 'df-capacity-label', x: W - 14, y: LABEL_Y, 'text-anchor': 'end' }, t('demo.capacityLine', { capacity: t.number(capacity) })),
    ]);
    this.chart.replaceChildren(
      el('figcaption', { class: 'df-chart-title' }, t('demo.chartTitle')),
      image,
      el('p', { class: 'df-axis' }, t('demo.axis')),
      el('ul', { class: 'cl-legend df-legend' }, [
        el('li', { class: 'df-legend-served' }, t('demo.legendServed')),
        el('li', { class: 'df-legend-failed' }, t('demo.legendFailed')),
      ]),
    );
  }
}
