// The several-servers widget: one client's bursts go through a round-robin load balancer to three
// app servers, each with its own token bucket or all sharing one. Mounted on #servers-widget,
// configured by data-capacity, data-refill-rate, data-servers, data-burst and data-step.
// Time moves only with the step button, so every run is exactly reproducible; switching the mode
// replays the same bursts and steps under the other mode. loader.js loads it when the section
// comes near (www/lesson/lazy.js).
import { checkNoArguments, checkOneOf } from '../checks.js';
import init, { TokenBucket } from '../../pkg/bucketlab.js';
import tables from '../../i18n/locales/servers.js';
import { langOf, pickLang, translator } from '../../i18n/translate.js';
import { simulate, MODES } from './simulation.js';
import { pacedRegion } from '../paced.js';
import { notLoaded } from '../../i18n/refusal.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** The lanes show this many of the latest requests. */
const MAX_SHOWN = 60;
const SERVER_NAMES = 'ABCDEF';
let mounted = 0;

/** Reads a data-* number; `rule` says what is allowed, for the message. */
function readNumber(root, name, fallback, ok, rule) {
  const text = root.dataset[name];
  if (text === undefined) return fallback;
  // A decimal comma is fine, as written in Portuguese.
  const value = /^\s*-?\d+([.,]\d+)?\s*$/.test(text) ? Number(text.replace(',', '.')) : NaN;
  if (!ok(value)) {
    const attribute = `data-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    throw new Error(`${attribute} must be ${rule}, got ${JSON.stringify(text)}`);
  }
  return value;
}

function readConfig(root) {
  const whole = (min, max) => (v) => Number.isInteger(v) && v >= min && v <= max;
  const config = {
    capacity: readNumber(root, 'capacity', 5, Number.isFinite, 'a number'),
    refillRate: readNumber(root, 'refillRate', 1, Number.isFinite, 'a number'),
    servers: readNumber(root, 'servers', 3, whole(2, 6), 'a whole number from 2 to 6'),
    burst: readNumber(root, 'burst', 20, whole(1, MAX_SHOWN), `a whole number from 1 to ${MAX_SHOWN}`),
    step: readNumber(root, 'step', 1, (v) => v > 0 && v <= 60, 'a number above 0 and at most 60'),
  };
  // The core checks B and r, with its own message naming the field.
  new TokenBucket({ capacity: config.capacity, refillRate: config.refillRate }).free();
  return config;
}

function element(tag, className, attributes = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

/** The most actions taken back from another page: about 55 ms of replay per burst at that many. */
const MAX_KEPT_ACTIONS = 1000;

/**
 * The mode and actions of another page's widget (its handle's `saved`) that this one's `config`
 * would have made itself, or null: each burst of this widget's size, each step of its length.
 */
function restored(saved, config) {
  if (!saved || !MODES.includes(saved.mode) || !Array.isArray(saved.actions) || saved.actions.length > MAX_KEPT_ACTIONS) return null;
  const own = saved.actions.every((a) => (a?.type === 'burst' && a.size === config.burst) || (a?.type === 'step' && a.seconds === config.step));
  return own ? { mode: saved.mode, actions: saved.actions.map(({ type, size, seconds }) => (type === 'burst' ? { type, size } : { type, seconds })) } : null;
}

/**
 * Mounts the widget in `root`, with the mode and actions `saved` from the other language's page
 * when it has them; returns a handle for scripts and tests.
 */
function mountServers(root, saved) {
  const config = readConfig(root);
  const id = `sv-${++mounted}`;
  const state = restored(saved, config) ?? { mode: 'local', actions: [] };
  let t = translator(tables, langOf());

  const widget = element('div', 'sv-widget');
  const modes = element('fieldset', 'sv-modes');
  const legend = element('legend');
  modes.append(legend);
  const radios = {};
  const radioText = {};
  for (const mode of MODES) {
    const label = element('label', 'sv-mode');
    const input = element('input', '', { type: 'radio', name: `${id}-mode`, value: mode });
    input.checked = mode === state.mode;
    input.addEventListener('change', () => setMode(mode));
    radios[mode] = input;
    radioText[mode] = element('span');
    label.append(input, radioText[mode]);
    modes.append(label);
  }
  const actions = element('div', 'sv-actions');
  const burstButton = element('button', 'sv-button sv-burst', { type: 'button' });
  const stepButton = element('button', 'sv-button sv-step', { type: 'button' });
  const resetButton = element('button', 'sv-button sv-reset', { type: 'button' });
  // The live line below says the time too: the clock itself stays quiet (an <output> is a live
  // region of its own).
  const clock = element('output', 'sv-clock', { 'aria-live': 'off' });
  actions.append(burstButton, stepButton, resetButton, clock);
  burstButton.addEventListener('click', () => burst());
  stepButton.addEventListener('click', () => step());
  resetButton.addEventListener('click', () => reset());

  const balancer = element('p', 'sv-balancer');
  const chart = svg('svg', { class: 'sv-lanes', role: 'img', 'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-desc` });
  const chartTitle = svg('title', { id: `${id}-title` });
  const chartDesc = svg('desc', { id: `${id}-desc` });
  const plot = svg('g');
  chart.append(chartTitle, chartDesc, plot);
  const keys = element('ul', 'sv-legend');
  const keyOk = element('li', 'sv-key sv-key--ok');
  const keyDeny = element('li', 'sv-key sv-key--deny');
  keys.append(keyOk, keyDeny);
  const result = element('p', 'sv-result');
  const limit = element('p', 'sv-limit');
  const other = element('p', 'sv-other');
  // Read by screen readers, not shown: the lesson's .sr-only (code.css).
  const live = element('p', 'sv-live sr-only', { 'aria-live': 'polite' });
  const spoken = pacedRegion(live);
  widget.append(modes, actions, balancer, chart, keys, result, limit, other, live);
  root.replaceChildren(widget);

  const number = (value, digits) => t.number(value, { digits, fixed: true });
  const run = (mode) => simulate(TokenBucket, { ...config, mode, actions: state.actions });

  function render() {
    const outcome = run(state.mode);
    const otherMode = state.mode === 'local' ? 'shared' : 'local';
    widget.setAttribute('lang', t.lang);
    widget.dataset.mode = state.mode;
    legend.textContent = t('modeLegend');
    radioText.local.textContent = t('modeLocal');
    radioText.shared.textContent = t('modeShared');
    radios[state.mode].checked = true;
    burstButton.textContent = t('burst', { n: config.burst });
    stepButton.textContent = t('step', { s: number(config.step, config.step % 1 ? 1 : 0) });
    resetButton.textContent = t('reset');
    clock.textContent = t('clock', { t: number(outcome.now, 1) });
    balancer.textContent = t('balancer', { servers: config.servers });
    chartTitle.textContent = t('svgTitle');
    chartDesc.textContent = t('svgDesc');
    keyOk.textContent = t('legendOk');
    keyDeny.textContent = t('legendDeny');

    const requests = outcome.requests.length;
    result.dataset.admitted = String(outcome.admitted);
    result.dataset.requests = String(requests);
    result.textContent = requests ? t('result', { a: outcome.admitted, count: requests }) : t('empty');
    limit.textContent = state.mode === 'local'
      ? t('limitLocal', { servers: config.servers, max: number(config.servers * config.capacity, 0) })
      : t('limitShared', { b: number(config.capacity, 0) });
    const otherAdmitted = run(otherMode).admitted;
    other.hidden = requests === 0;
    other.dataset.admitted = String(otherAdmitted);
    other.textContent = t('otherResult', {
      mode: otherMode === 'local' ? t('otherLocal') : t('otherShared'),
      count: otherAdmitted,
    });
    drawLanes(outcome);
    return outcome;
  }

  function drawLanes(outcome) {
    const width = Math.max(280, Math.round(root.clientWidth || 640));
    const header = 24;
    const laneHeight = 50;
    const storeHeight = state.mode === 'shared' ? 46 : 0;
    const height = header + config.servers * laneHeight + storeHeight;
    const labelWidth = Math.round(Math.min(170, Math.max(118, width * 0.26)));
    chart.setAttribute('viewBox', `0 0 ${width} ${height}`);
    chart.setAttribute('width', width);
    chart.setAttribute('height', height);
    const shapes = [];
    // A bar of the bucket's fill with its count written beside it (a tooltip alone shows nothing
    // under a finger), and the count in words as the tooltip.
    const gauge = (x, y, w, tokens) => {
      const values = { t: number(tokens, 1), b: number(config.capacity, 0) };
      const group = svg('g', { class: 'sv-gauge' });
      const tip = svg('title');
      tip.textContent = t('laneTokens', values);
      const bar = w - 40;
      group.append(tip, svg('rect', { class: 'sv-gauge-back', x, y, width: bar, height: 5, rx: 2 }));
      const filled = (bar * tokens) / config.capacity;
      if (filled > 0) group.append(svg('rect', { class: 'sv-gauge-fill', x, y, width: filled, height: 5, rx: 2 }));
      const value = svg('text', { class: 'sv-lane-count sv-gauge-value', x: x + bar + 5, y: y + 2.5, 'dominant-baseline': 'central' });
      value.textContent = t('laneGauge', values);
      group.append(value);
      shapes.push(group);
    };

    // A narrow screen shows fewer columns, so each marker stays big enough to see.
    const start = Math.max(0, outcome.requests.length - (width < 560 ? MAX_SHOWN / 2 : MAX_SHOWN));
    const shown = outcome.requests.slice(start);
    for (let lane = 0; lane < config.servers; lane++) {
      const y = header + lane * laneHeight;
      shapes.push(svg('rect', { class: `sv-lane sv-lane--${lane % 2 ? 'odd' : 'even'}`, x: 0, y, width, height: laneHeight }));
      const name = svg('text', { class: 'sv-lane-name', x: 8, y: y + 19 });
      name.textContent = t('server', { name: SERVER_NAMES[lane] });
      const mine = outcome.requests.filter((request) => request.server === lane);
      const count = svg('text', { class: 'sv-lane-count', x: 8, y: y + 35 });
      count.textContent = t('laneCount', { a: mine.filter((r) => r.allowed).length, n: mine.length });
      shapes.push(name, count);
      if (state.mode === 'local') gauge(8, y + 40, labelWidth - 24, outcome.tokens[lane]);
    }

    // Older requests scrolled off the chart's left: said in the labels' column, over the lanes,
    // so the all-diamond lanes of a third burst do not read as "nothing admitted".
    if (start > 0) {
      const note = svg('text', { class: 'sv-tick sv-shown-last', x: 8, y: 14 });
      note.textContent = t('shownLast', { shown: shown.length, total: outcome.requests.length });
      shapes.push(note);
    }
    const columns = Math.max(shown.length, 20);
    const columnWidth = (width - labelWidth - 10) / columns;
    const size = Math.max(2.5, Math.min(7, columnWidth * 0.38));
    const columnX = (index) => labelWidth + columnWidth * (index - start);
    for (const mark of outcome.bursts.filter((b) => b.index >= start)) {
      const x = columnX(mark.index);
      shapes.push(svg('line', { class: 'sv-burst-line', x1: x, x2: x, y1: header - 6, y2: header + config.servers * laneHeight }));
      const tick = svg('text', { class: 'sv-tick', x: x + 3, y: 14 });
      tick.textContent = t('burstAt', { t: number(mark.now, 1) });
      shapes.push(tick);
    }
    shown.forEach((request, j) => {
      const cx = columnX(start + j) + columnWidth / 2;
      const cy = header + request.server * laneHeight + laneHeight / 2;
      if (request.allowed) {
        shapes.push(svg('circle', { class: 'sv-admitted', cx, cy, r: size }));
      } else {
        const d = size * 1.25;
        shapes.push(svg('polygon', {
          class: 'sv-denied', points: `${cx},${cy - d} ${cx + d},${cy} ${cx},${cy + d} ${cx - d},${cy}`,
        }));
      }
    });

    if (state.mode === 'shared') {
      const y = header + config.servers * laneHeight;
      shapes.push(svg('rect', { class: 'sv-store', x: 1, y: y + 4, width: width - 2, height: storeHeight - 6, rx: 6 }));
      const text = svg('text', { class: 'sv-store-text', x: 10, y: y + 22 });
      text.textContent = t('store', { t: number(outcome.tokens[0], 1), b: number(config.capacity, 0) });
      shapes.push(text);
      gauge(10, y + 30, Math.min(240, width - 20), outcome.tokens[0]);
    }
    plot.replaceChildren(...shapes);
  }

  function announce(outcome, from) {
    const last = outcome.requests.slice(from);
    // A mode chosen before any request: the radio button says it; "0 of 0 admitted" says nothing.
    if (last.length === 0) return;
    spoken.say(t('announce', {
      mode: state.mode === 'local' ? t('modeLocal') : t('modeShared'),
      a: last.filter((r) => r.allowed).length,
      n: last.length,
    }));
  }

  function burst() {
    // The requests so far, one per burst's request (simulation.js), without replaying them all.
    const before = state.actions.reduce((n, action) => n + (action.type === 'burst' ? action.size : 0), 0);
    state.actions.push({ type: 'burst', size: config.burst });
    announce(render(), before);
  }

  // Only the clock and the buckets change: said with the counts so far, as a burst's outcome is.
  function step() {
    state.actions.push({ type: 'step', seconds: config.step });
    const outcome = render();
    const admitted = outcome.admitted;
    const tokens = state.mode === 'local'
      ? outcome.tokens.map((left, lane) => t('tokensOf', {
        server: t('server', { name: SERVER_NAMES[lane] }), t: number(left, 1), b: number(config.capacity, 0),
      })).join(', ')
      : t('store', { t: number(outcome.tokens[0], 1), b: number(config.capacity, 0) });
    spoken.say(t('announceStep', {
      clock: t('clock', { t: number(outcome.now, 1) }),
      mode: state.mode === 'local' ? t('modeLocal') : t('modeShared'),
      tokens, a: admitted, n: outcome.requests.length, d: outcome.requests.length - admitted,
    }));
  }

  function reset() {
    state.actions = [];
    spoken.clear();
    render();
    spoken.say(t('resetDone'));
  }

  function setMode(mode) {
    checkOneOf('mode', mode, MODES);
    state.mode = mode;
    announce(render(), 0);
  }

  const onLang = (event) => {
    t = translator(tables, pickLang(event.detail?.lang ?? document.documentElement.lang));
    render();
  };
  document.addEventListener('bucketlab:langchange', onLang);
  // Lanes are drawn in CSS pixels, so text keeps its size at any width.
  let drawnWidth = root.clientWidth;
  const resize = new ResizeObserver(() => {
    if (root.clientWidth !== drawnWidth) {
      drawnWidth = root.clientWidth;
      render();
    }
  });
  resize.observe(root);
  render();

  return {
    burst: (...args) => {
      checkNoArguments('burst', args, `each burst is ${config.burst} requests, the mount's data-burst`);
      burst();
    },
    step: (...args) => {
      checkNoArguments('step', args, `each step is ${config.step} s, the mount's data-step`);
      step();
    },
    reset: (...args) => {
      checkNoArguments('reset', args);
      reset();
    },
    setMode,
    get mode() { return state.mode; },
    get admitted() { return run(state.mode).admitted; },
    /** The mode and the actions so far, for the other language's page (see `restored`). */
    get saved() { return { mode: state.mode, actions: state.actions.map((a) => ({ ...a })) }; },
    unmount() {
      document.removeEventListener('bucketlab:langchange', onLang);
      resize.disconnect();
      root.replaceChildren();
    },
  };
}

/**
 * Loads the wasm module and mounts the widget on `root`; a bad setting or a module that did not
 * load is shown in `root` instead, in the page's language. Returns the widget's handle, or null.
 */
export async function startServers(root, saved) {
  try {
    await init();
    return mountServers(root, saved);
  } catch (error) {
    const box = element('div', 'sv-error', { role: 'alert' });
    const t = translator(tables, langOf());
    box.textContent = t('error', { message: notLoaded(error, t.lang) });
    root.replaceChildren(box);
    return null;
  }
}
