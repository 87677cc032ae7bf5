// The server's view of a run: attempts per bin as stacked bars (first attempts, retries), drawn up
// to the clock's time, with a playhead; and one thin row per policy on the same time axis. The SVG
// is built once per run; the clock only moves the playhead and shows or hides bars.
import { el, hatch, svg } from '../lab/dom.js';
import { bins } from './runs.js';

const W = 640;
const H = 160;
const ROW_H = 26;
const PAD = 4;

export class Histogram {
  /** `runs` from runAll (each row named by its `key`); `end` the axis' last second. */
  constructor(root, { runs, end, t }) {
    Object.assign(this, { root, end, t });
    this.width = Math.max(0.1, Math.ceil(end / 0.1 / 160) * 0.1);
    const main = bins(runs.main, this.width, end);
    const rows = runs.rows.map((row) => ({ ...row, bins: bins(row.run, this.width, end) }));
    const tallest = (b) => Math.max(1, ...b.firsts.map((f, i) => f + b.retries[i]));
    this.bars = [];
    const x = (time) => PAD + ((W - 2 * PAD) * time) / end;
    const barWidth = Math.max(1, x(this.width) - x(0) - 0.5);
    // Retries striped, first attempts solid: two series apart in grey too.
    const column = (b, i, height, y0, scale, striped) => {
      const first = b.firsts[i];
      const retry = b.retries[i];
      const group = svg('g', { class: 'cl-bin' });
      const hFirst = (first / scale) * height;
      const hRetry = (retry / scale) * height;
      if (first) group.append(svg('rect', { class: 'cl-first', x: x(i * b.width), y: y0 - hFirst, width: barWidth, height: hFirst }));
      if (retry) group.append(svg('rect', { class: 'cl-retry', fill: striped, x: x(i * b.width), y: y0 - hFirst - hRetry, width: barWidth, height: hRetry }));
      this.bars.push({ start: i * b.width, group });
      return group;
    };
    const mainTop = tallest(main);
    this.playhead = svg('line', { class: 'cl-playhead', x1: PAD, x2: PAD, y1: 0, y2: H });
    const [defs, striped] = hatch('cl-retry-stripes');
    const chart = svg('svg', { class: 'cl-histogram', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': 'cl-chart-title' }, [
      defs,
      svg('line', { class: 'cl-axis', x1: PAD, x2: W - PAD, y1: H - 1, y2: H - 1 }),
      ...Array.from(main.firsts, (_, i) => column(main, i, H - 12, H - 1, mainTop, striped)),
      this.playhead,
    ]);
    const rowHeads = [];
    this.rowPlayheads = [];
    const rowList = el('ul', { class: 'cl-rows', 'aria-label': t('chart.rows') }, rows.map((row) => {
      const head = svg('line', { class: 'cl-playhead', x1: PAD, x2: PAD, y1: 0, y2: ROW_H });
      this.rowPlayheads.push(head);
      const label = t('chart.row', { policy: t(`policies.${row.key}`), count: row.run.metrics.attempts, peak: row.run.metrics.peak, retries: row.run.metrics.peakRetries });
      rowHeads.push(label);
      return el('li', { class: 'cl-row', 'data-policy': row.policy }, [
        el('span', { class: 'cl-row-label' }, label),
        svg('svg', { class: 'cl-row-chart', viewBox: `0 0 ${W} ${ROW_H}`, 'aria-hidden': 'true', preserveAspectRatio: 'none' }, [
          svg('line', { class: 'cl-axis', x1: PAD, x2: W - PAD, y1: ROW_H - 1, y2: ROW_H - 1 }),
          // Each row to its own scale (the hammer's first instant would flatten every other row);
          // the label gives the numbers to compare.
          ...Array.from(row.bins.firsts, (_, i) => column(row.bins, i, ROW_H - 2, ROW_H - 1, tallest(row.bins), striped)),
          head,
        ]),
      ]);
    }));
    this.x = x;
    this.summary = el('p', { class: 'cl-summary', 'aria-live': 'off' });
    this.main = runs.main;
    root.replaceChildren(
      el('h3', { id: 'cl-chart-title', class: 'cl-chart-title' }, t('chart.title')),
      el('ul', { class: 'cl-legend' }, [el('li', { class: 'cl-legend-first' }, t('chart.firsts')), el('li', { class: 'cl-legend-retry' }, t('chart.retries'))]),
      chart,
      this.summary,
      rowList,
    );
  }

  /** Shows the run up to `time` seconds. */
  draw(time) {
    for (const bar of this.bars) bar.group.classList.toggle('cl-future', bar.start > time);
    const at = this.x(Math.min(time, this.end));
    for (const line of [this.playhead, ...this.rowPlayheads]) {
      line.setAttribute('x1', at);
      line.setAttribute('x2', at);
    }
    let shown = 0;
    let admitted = 0;
    const times = this.main.times;
    while (shown < times.length && times[shown] <= time) {
      if (this.main.outcomes[shown] === 0) admitted++;
      shown++;
    }
    this.summary.textContent = this.t('chart.summary', { shown, count: times.length, admitted });
  }
}
