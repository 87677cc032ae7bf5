// The section's two charts as inline SVG: a client's timeline (admitted and refused requests per
// bar) and the burst–rate curves on log–log axes with one policy's point. Only drawing here.
//
// Each chart is drawn for the width it is shown at (`width`, in CSS px) with its labels at `font`
// px: one unit of the viewBox is one pixel on screen, so the labels keep their size on a phone
// (a 640-wide drawing scaled down to a phone's 340 px had them at 6 px). The margins are made
// for the labels at that size, and the rate axis names every decade only where they fit.
import { hatch, svg } from '../lab/dom.js';

/** The drawing's width when none is given: the width the charts were first drawn at. */
const WIDTH = 640;

/** About how wide `text` is at `font` px: digits and separators are about 0.6 em. */
const textWidth = (text, font) => Math.ceil(String(text).length * 0.62 * font);

/** Stacked bars: `admitted[i]` below, `limited[i]` above, one per bar of the trace. */
export function timelineChart(trace, label, { width: W = WIDTH, font = 11 } = {}) {
  const H = 160;
  const bars = trace.admitted.length;
  const most = Math.max(1, ...trace.admitted.map((a, i) => a + trace.limited[i]));
  // Room on the left for the larger count, above and below for half a label each.
  const pad = { l: textWidth(most, font) + 10, r: 8, t: Math.ceil(font * 0.6) + 2, b: Math.ceil(font * 0.6) + 8 };
  const step = (W - pad.l - pad.r) / Math.max(1, bars);
  // A pixel between bars, up to 120 of them (more read as one area), where that leaves a bar.
  const width = Math.max(1, step - (bars <= 120 && step > 2 ? 1 : 0));
  const x = (i) => pad.l + i * step;
  const y = (n) => H - pad.b - (n * (H - pad.t - pad.b)) / most;
  // A count's label, centred on its height.
  const middle = font * 0.35;
  // Refused striped, admitted solid: two series apart in grey too.
  const [defs, striped] = hatch('tr-deny-stripes');
  const shapes = [defs];
  trace.admitted.forEach((a, i) => {
    const l = trace.limited[i];
    if (a) shapes.push(svg('rect', { class: 'tr-ok', x: x(i), y: y(a), width, height: y(0) - y(a) }));
    if (l) shapes.push(svg('rect', { class: 'tr-deny', fill: striped, x: x(i), y: y(a + l), width, height: y(a) - y(a + l) }));
  });
  return svg('svg', { class: 'tr-chart tr-timeline-chart', viewBox: `0 0 ${W} ${H}`, 'font-size': font, role: 'img', 'aria-label': label }, [
    svg('line', { class: 'tr-axis', x1: pad.l, x2: W - pad.r, y1: y(0), y2: y(0) }),
    svg('text', { class: 'tr-tick', x: pad.l - 6, y: y(most) + middle, 'text-anchor': 'end' }, String(most)),
    svg('text', { class: 'tr-tick', x: pad.l - 6, y: y(0) + middle, 'text-anchor': 'end' }, '0'),
    ...shapes,
  ]);
}

/** The curve's series as `[id, bursts at each rate]`: the median, p95, p99 and busiest client's. */
export function curveSeries(curves) {
  return [['median', curves.median], ['p95', curves.p95], ['p99', curves.p99], ['heaviest', curves.heaviest?.[1] ?? []]];
}

/**
 * The curves `{ rates, median, p95, p99, heaviest }` (heaviest: [key, bursts]) with `point`
 * ({ capacity, refillRate }) marked; `names` labels each series; log–log axes.
 */
export function curveChart(curves, point, names, label, number, { width: W = WIDTH, font = 11 } = {}) {
  const H = 300;
  const series = curveSeries(curves);
  const values = series.flatMap(([, v]) => v).concat(point.capacity).filter((v) => v > 0);
  const lo = Math.max(0.5, Math.min(...values));
  const hi = Math.max(lo * 10, ...values);
  const [r0, r1] = [Math.log10(curves.rates[0]), Math.log10(curves.rates[curves.rates.length - 1])];
  const [b0, b1] = [Math.floor(Math.log10(lo)), Math.ceil(Math.log10(hi))];
  const rateDecades = [];
  for (let e = Math.ceil(r0); e <= Math.floor(r1); e++) rateDecades.push(e);
  const burstDecades = [];
  for (let e = b0; e <= b1; e++) burstDecades.push(e);
  const rateWidth = Math.max(0, ...rateDecades.map((e) => textWidth(number(10 ** e), font)));
  const burstWidth = Math.max(0, ...burstDecades.map((e) => textWidth(number(10 ** e), font)));
  // On the left the widest burst; on the right half of the last rate's label ("10,000"); above the
  // burst axis's name, below the rates and the rate axis's name.
  const pad = { l: burstWidth + 12, r: Math.ceil(rateWidth / 2) + 6, t: font + 15, b: 2 * font + 18 };
  const x = (r) => pad.l + ((Math.log10(r) - r0) / (r1 - r0)) * (W - pad.l - pad.r);
  const y = (b) => H - pad.b - ((Math.log10(Math.max(b, 10 ** b0)) - b0) / (b1 - b0)) * (H - pad.t - pad.b);
  // Every decade has its grid line; on a narrow chart only every second (or third…) one is named,
  // 1 among them, so that the names never touch.
  const decade = rateDecades.length > 1 ? x(10 ** rateDecades[1]) - x(10 ** rateDecades[0]) : Infinity;
  const every = Math.max(1, Math.ceil((rateWidth + font) / decade));
  const ticks = [];
  for (const e of rateDecades) {
    ticks.push(svg('line', { class: 'tr-grid', x1: x(10 ** e), x2: x(10 ** e), y1: pad.t, y2: H - pad.b }));
    if (e % every === 0) ticks.push(svg('text', { class: 'tr-tick', x: x(10 ** e), y: H - pad.b + font + 4, 'text-anchor': 'middle' }, number(10 ** e)));
  }
  for (const e of burstDecades) {
    ticks.push(svg('line', { class: 'tr-grid', x1: pad.l, x2: W - pad.r, y1: y(10 ** e), y2: y(10 ** e) }));
    ticks.push(svg('text', { class: 'tr-tick', x: pad.l - 6, y: y(10 ** e) + font * 0.35, 'text-anchor': 'end' }, number(10 ** e)));
  }
  const lines = series.filter(([, v]) => v.length).map(([name, v]) => svg('polyline', {
    class: `tr-line tr-line--${name}`,
    points: v.map((b, i) => `${x(curves.rates[i]).toFixed(1)},${y(b).toFixed(1)}`).join(' '),
  }));
  return svg('svg', { class: 'tr-chart tr-curve', viewBox: `0 0 ${W} ${H}`, 'font-size': font, role: 'img', 'aria-label': label }, [
    ...ticks,
    ...lines,
    svg('circle', { class: 'tr-point', cx: x(point.refillRate), cy: y(point.capacity), r: 6 }),
    svg('text', { class: 'tr-axis-name', x: W - pad.r, y: H - 4, 'text-anchor': 'end' }, names.rate),
    svg('text', { class: 'tr-axis-name', x: pad.l, y: pad.t - 10, 'text-anchor': 'middle' }, names.burst),
  ]);
}
