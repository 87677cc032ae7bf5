// The section's two charts as inline SVG: a client's timeline (admitted and refused requests per
// bar) and the burst–rate curves on log–log axes with one policy's point. Only drawing here.
import { svg } from '../lab/dom.js';

const W = 640;

/** Stacked bars: `admitted[i]` below, `limited[i]` above, one per bar of the trace. */
export function timelineChart(trace, label) {
  const H = 160;
  const pad = { l: 40, r: 8, t: 8, b: 22 };
  const bars = trace.admitted.length;
  const most = Math.max(1, ...trace.admitted.map((a, i) => a + trace.limited[i]));
  const x = (i) => pad.l + (i * (W - pad.l - pad.r)) / Math.max(1, bars);
  const width = Math.max(1, (W - pad.l - pad.r) / Math.max(1, bars) - (bars > 120 ? 0 : 1));
  const y = (n) => H - pad.b - (n * (H - pad.t - pad.b)) / most;
  const shapes = [];
  trace.admitted.forEach((a, i) => {
    const l = trace.limited[i];
    if (a) shapes.push(svg('rect', { class: 'tr-ok', x: x(i), y: y(a), width, height: y(0) - y(a) }));
    if (l) shapes.push(svg('rect', { class: 'tr-deny', x: x(i), y: y(a + l), width, height: y(a) - y(a + l) }));
  });
  return svg('svg', { class: 'tr-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label }, [
    svg('line', { class: 'tr-axis', x1: pad.l, x2: W - pad.r, y1: y(0), y2: y(0) }),
    svg('text', { class: 'tr-tick', x: pad.l - 4, y: y(most) + 4, 'text-anchor': 'end' }, String(most)),
    svg('text', { class: 'tr-tick', x: pad.l - 4, y: y(0), 'text-anchor': 'end' }, '0'),
    ...shapes,
  ]);
}

/**
 * The curves `{ rates, median, p95, p99, heaviest }` (heaviest: [key, bursts]) with `point`
 * ({ capacity, refillRate }) marked; `names` labels each series; log–log axes.
 */
export function curveChart(curves, point, names, label, number) {
  const H = 300;
  // Room on the right for half of the last rate's label ("10,000").
  const pad = { l: 52, r: 28, t: 26, b: 40 };
  const series = [
    ['median', curves.median],
    ['p95', curves.p95],
    ['p99', curves.p99],
    ['heaviest', curves.heaviest?.[1] ?? []],
  ];
  const values = series.flatMap(([, v]) => v).concat(point.capacity).filter((v) => v > 0);
  const lo = Math.max(0.5, Math.min(...values));
  const hi = Math.max(lo * 10, ...values);
  const [r0, r1] = [Math.log10(curves.rates[0]), Math.log10(curves.rates[curves.rates.length - 1])];
  const [b0, b1] = [Math.floor(Math.log10(lo)), Math.ceil(Math.log10(hi))];
  const x = (r) => pad.l + ((Math.log10(r) - r0) / (r1 - r0)) * (W - pad.l - pad.r);
  const y = (b) => H - pad.b - ((Math.log10(Math.max(b, 10 ** b0)) - b0) / (b1 - b0)) * (H - pad.t - pad.b);
  const ticks = [];
  for (let e = Math.ceil(r0); e <= Math.floor(r1); e++) {
    ticks.push(svg('line', { class: 'tr-grid', x1: x(10 ** e), x2: x(10 ** e), y1: pad.t, y2: H - pad.b }));
    ticks.push(svg('text', { class: 'tr-tick', x: x(10 ** e), y: H - pad.b + 14, 'text-anchor': 'middle' }, number(10 ** e)));
  }
  for (let e = b0; e <= b1; e++) {
    ticks.push(svg('line', { class: 'tr-grid', x1: pad.l, x2: W - pad.r, y1: y(10 ** e), y2: y(10 ** e) }));
    ticks.push(svg('text', { class: 'tr-tick', x: pad.l - 4, y: y(10 ** e) + 4, 'text-anchor': 'end' }, number(10 ** e)));
  }
  const lines = series.filter(([, v]) => v.length).map(([name, v]) => svg('polyline', {
    class: `tr-line tr-line--${name}`,
    points: v.map((b, i) => `${x(curves.rates[i]).toFixed(1)},${y(b).toFixed(1)}`).join(' '),
  }));
  return svg('svg', { class: 'tr-chart tr-curve', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label }, [
    ...ticks,
    ...lines,
    svg('circle', { class: 'tr-point', cx: x(point.refillRate), cy: y(point.capacity), r: 6 }),
    svg('text', { class: 'tr-axis-name', x: W - pad.r, y: H - 4, 'text-anchor': 'end' }, names.rate),
    svg('text', { class: 'tr-axis-name', x: pad.l, y: pad.t - 10, 'text-anchor': 'middle' }, names.burst),
  ]);
}
