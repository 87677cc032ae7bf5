// LaneChart: rows of requests on one time axis, with a playback clock. Each row shows one
// limiter's verdicts (or one client's): admitted (filled circle), delayed (ring at arrival, line to
// the moment it leaves, circle there), denied (diamond), the load line and the busiest window (the
// one window's span of the whole run with the most requests passed).
// Time is explicit: play() runs a frame loop only while playing; pause/seek/step drive it exactly.
import { checkSeconds } from '../checks.js';
import { el, svg, uid } from './dom.js';

// The strip's width in SVG units: 600, or the strip's own width in pixels where it is narrower (a
// phone), so a lane keeps its 46 px height and its marks their size instead of shrinking with the
// page (at 375 px a 600-unit strip was 26 px tall, its marks 5 px wide).
const W = 600;
const H = 46;
/** Widths are rounded to this many pixels, so a resize by a pixel or two doesn't redraw the lanes. */
const W_STEP = 8;
/** The strip's width in units for `px` pixels on screen (600 while it has none: not laid out yet). */
const unitsFor = (px) => (px > 0 ? Math.min(W, Math.max(W_STEP, Math.round(px / W_STEP) * W_STEP)) : W);
const PAD = 8;
const R = 4.5;
// Two tracks, so a burst at one instant shows both what passed and what was refused.
const PASS_Y = H / 2 - 9;
const DENY_Y = H / 2 + 9;

/**
 * The axis's tick step for a stretch of `span` seconds: 1, 2 or 5 times a power of ten, the
 * smallest that gives at most 8 steps (a day's run, a twentieth of a second), and the decimals
 * its numbers need.
 */
export function tickStep(span) {
  const power = 10 ** Math.floor(Math.log10(Math.max(span, 1e-6) / 8));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => span / s <= 8 + 1e-9);
  return { step, digits: Math.max(0, -Math.floor(Math.log10(step) + 1e-9)) };
}

export class LaneChart {
  /**
   * @param {object} o
   * @param {Function} o.t translator
   * @param {number} o.duration seconds on the axis
   * @param {number} o.limit top of the load line
   * @param {number} [o.window] window length, for the boundary lines
   * @param {Array} o.rows [{ key, name, caption?, arrivals, outcomes, delays, samples?, sampleInterval?,
   *   peak?, peakStart?, focus?: Set<number>, detail?: string }]
   * @param {{ from: number, to: number }} [o.view] the stretch of time drawn (default: 0 to
   *   `duration`); playback still runs over the whole duration: the stretch moves to keep the
   *   playhead on the strip, and the axis says which part of the run it shows
   * @param {number} [o.width] the pixels it will have on the page (its container's `clientWidth`),
   *   so it is drawn at its size from the start; it follows its own width from then on
   */
  constructor({ t, duration, limit, window, rows, onTime, view, width }) {
    Object.assign(this, { t, duration, limit, window, rows, onTime });
    this.view = view ?? { from: 0, to: duration };
    this.span = this.view.to - this.view.from;
    this.time = 0;
    this.playing = false;
    this.frame = 0;
    this.w = unitsFor(width);
    this.element = el('div', { class: 'lab-chart' });
    // The whole run done, on the stretch chosen (a phone's busiest second), not the run's end.
    this.#draw(duration, false);
    // Redrawn when its width on the page differs (a phone turned sideways, or no `width` given).
    this.resize = new ResizeObserver(([entry]) => {
      const px = entry.contentRect.width;
      const w = unitsFor(px);
      if (px > 0 && w !== this.w) {
        this.w = w;
        this.#draw(this.time, false);
      }
    });
    this.resize.observe(this.element);
  }

  /** Builds the lanes and the axis at the current width, showing `time` (`follow`: see #show). */
  #draw(time, follow = true) {
    this.parts = this.rows.map((row) => this.#row(row));
    this.element.replaceChildren(...this.parts.map((part) => part.node), this.#axis());
    this.#show(time, follow);
  }

  x(time) {
    return PAD + ((this.w - 2 * PAD) * (time - this.view.from)) / (this.view.to - this.view.from);
  }

  #row(row) {
    const titleId = uid('lab-row');
    const marks = [];
    // A question's own requests are ringed: each ring drawn under every mark (a copy of its mark,
    // wider, in the text's colour), so marks close together keep their fills, and a cluster one
    // outline. Drawn on its mark, a ring covered the mark before it.
    const rings = [];
    const ringLayer = svg('g', { class: 'lab-rings', 'aria-hidden': 'true' });
    const layer = svg('g', { class: 'lab-marks' });
    for (let i = 0; i < row.arrivals.length; i++) {
      const at = this.x(row.arrivals[i]);
      const outcome = row.outcomes[i];
      let mark;
      if (outcome === 2) {
        const d = `M${at} ${DENY_Y - R - 1}l${R + 1} ${R + 1}l${-R - 1} ${R + 1}l${-R - 1} ${-R - 1}z`;
        mark = svg('path', { class: 'lab-deny', d });
      } else if (outcome === 1) {
        const out = this.x(row.arrivals[i] + row.delays[i]);
        mark = svg('g', { class: 'lab-delay' }, [
          svg('line', { x1: at, x2: out, y1: PASS_Y, y2: PASS_Y }),
          svg('circle', { class: 'lab-ring', cx: at, cy: PASS_Y, r: R - 1 }),
          svg('circle', { cx: out, cy: PASS_Y, r: R }),
        ]);
      } else {
        mark = svg('circle', { class: 'lab-ok', cx: at, cy: PASS_Y, r: R });
      }
      marks.push(mark);
      layer.append(mark);
      if (row.focus?.has(i)) {
        const ring = mark.cloneNode(true);
        ring.setAttribute('class', 'lab-focus');
        rings[i] = ring;
        ringLayer.append(ring);
      }
    }
    const clipId = uid('lab-clip');
    const w = this.w;
    const clip = svg('rect', { x: 0, y: 0, width: w, height: H });
    const boundaries = svg('g', { class: 'lab-boundaries' });
    if (this.window && this.duration / this.window <= 60) {
      for (let k = this.window; k < this.duration; k += this.window) {
        boundaries.append(svg('line', { x1: this.x(k), x2: this.x(k), y1: 2, y2: H - 2 }));
      }
    }
    let load = null;
    if (row.samples) {
      const points = Array.from(row.samples, (v, i) => {
        const y = H - 4 - ((H - 8) * Math.min(v, this.limit)) / this.limit;
        return `${this.x(i * row.sampleInterval).toFixed(1)},${y.toFixed(1)}`;
      });
      load = svg('polyline', { class: 'lab-load', points: points.join(' '), 'clip-path': `url(#${clipId})` });
    }
    const peak = row.peak > 1
      ? svg('rect', {
        class: 'lab-peak', x: this.x(row.peakStart), y: 1, height: H - 2,
        width: Math.max(0, Math.min(this.x(row.peakStart + this.window), w - PAD) - this.x(row.peakStart)),
      })
      : null;
    const head = svg('line', { class: 'lab-head', y1: 0, y2: H });
    const title = svg('title', { id: titleId });
    const strip = svg('svg', {
      class: 'lab-strip', viewBox: `0 0 ${w} ${H}`, role: 'img', 'aria-labelledby': titleId,
    }, [
      title,
      svg('defs', {}, svg('clipPath', { id: clipId }, clip)),
      svg('rect', { class: 'lab-track', x: 0, y: 0, width: w, height: H, rx: 6 }),
      peak, boundaries, load, ringLayer, layer, head,
    ]);
    const counts = el('span', { class: 'lab-counts' });
    const peakText = el('span', { class: 'lab-peak-text' });
    const header = el('div', { class: 'lab-row-head' }, [
      el('span', { class: 'lab-row-name' }, row.name),
      row.detail ? el('span', { class: 'lab-row-detail' }, row.detail) : null,
      counts,
      row.peak !== undefined ? peakText : null,
    ]);
    const node = el('div', { class: 'lab-row', 'data-lane': row.key }, [
      header,
      row.caption ? el('p', { class: 'lab-caption' }, row.caption) : null,
      strip,
    ]);
    if (row.peak !== undefined) peakText.textContent = this.t('lane.peak', { peak: row.peak, span: this.window });
    for (const mark of [...marks, ...rings]) mark?.classList.add('lab-future');
    return { node, row, marks, rings, clip, head, title, counts, shown: 0, tally: [0, 0, 0], text: '' };
  }

  #axis() {
    const { from, to } = this.view;
    const { step, digits } = tickStep(to - from);
    const axis = svg('svg', { class: 'lab-axis', viewBox: `0 0 ${this.w} 28`, 'aria-hidden': 'true' });
    const first = Math.ceil(from / step - 1e-9);
    for (let i = first; i * step <= to + 1e-9; i++) {
      // From the tick's index, not a running sum: 0.1 added thirty times is not 3.
      const k = Number((i * step).toFixed(digits));
      const x = this.x(k);
      axis.append(svg('line', { x1: x, x2: x, y1: 0, y2: 5 }));
      const anchor = k - step < from - 1e-9 ? 'start' : k + step > to + 1e-9 ? 'end' : 'middle';
      axis.append(svg('text', { x, y: 22, 'text-anchor': anchor }, this.t.number(k, digits)));
    }
    // Part of the run only (a phone): said under the axis, where the numbers would not say it.
    const part = this.span < this.duration - 1e-9
      ? this.t('lane.part', { from: this.t.number(from, 2), to: this.t.number(to, 2), duration: this.t.number(this.duration, 2) })
      : null;
    return el('div', { class: 'lab-axis-wrap' }, [
      axis,
      el('span', { class: 'lab-axis-label' }, this.t('lane.axis')),
      part ? el('span', { class: 'lab-axis-part' }, part) : null,
    ]);
  }

  /**
   * Shows everything that has arrived by `time`, a number of seconds on the axis (0 to
   * `duration`). Anything else (undefined, NaN, '2abc', '1', -1, 1e9) is refused, naming the
   * argument, the value and the range, and changes nothing: never coerced nor clamped.
   */
  seek(time) {
    checkSeconds('time', time, this.duration, true);
    this.#show(time);
  }

  /**
   * Shows `time`, which the caller has kept on the axis (play and step stop at its ends). With
   * `follow` (playing, stepping, seeking), a stretch narrower than the run moves to keep it in view;
   * without (the first drawing, a resize), the stretch stays where it is.
   */
  #show(time, follow = true) {
    this.time = Math.min(Math.max(time, 0), this.duration);
    // A stretch narrower than the run (a phone) follows the playhead: once it leaves, the stretch
    // is redrawn around it (from a whole tenth of a second, so the axis reads cleanly).
    if (follow && (this.time < this.view.from - 1e-9 || this.time > this.view.to + 1e-9)) {
      const from = Math.min(Math.max(0, Math.floor((this.time - this.span / 2) * 10) / 10), this.duration - this.span);
      this.view = { from, to: from + this.span };
      this.#draw(this.time);
      return;
    }
    const x = this.x(this.time);
    for (const part of this.parts) {
      const { row, marks, rings, tally } = part;
      while (part.shown < marks.length && row.arrivals[part.shown] <= this.time) {
        marks[part.shown].classList.remove('lab-future');
        rings[part.shown]?.classList.remove('lab-future');
        tally[row.outcomes[part.shown]]++;
        part.shown++;
      }
      while (part.shown > 0 && row.arrivals[part.shown - 1] > this.time) {
        part.shown--;
        marks[part.shown].classList.add('lab-future');
        rings[part.shown]?.classList.add('lab-future');
        tally[row.outcomes[part.shown]]--;
      }
      part.clip.setAttribute('width', Math.max(0, x));
      part.head.setAttribute('x1', x);
      part.head.setAttribute('x2', x);
      const text = this.t('lane.counts', { admitted: tally[0], delayed: tally[1], denied: tally[2] });
      if (text !== part.text) {
        // Each count in one piece, so a phone's narrow line never leaves a number under its word.
        part.text = text;
        part.counts.replaceChildren(...text.split(' · ').flatMap((count, i) => {
          const piece = el('span', {}, count);
          return i ? [' · ', piece] : [piece];
        }));
      }
    }
    if (!this.playing) this.#describe();
    this.onTime?.(this.time);
  }

  /**
   * Throws unless `value` is a finite number (`onAxis`: from 0 to the duration): `time must be a
   * finite number of seconds (the axis runs from 0 to 2.5), got "2abc" (a string)`; never coerced.
   */

  #describe() {
    for (const { row, title, tally } of this.parts) {
      // A lane without a whole-run peak (the key lab's, one per key) leaves that clause out.
      const peak = row.peak ?? undefined;
      title.textContent = this.t(peak === undefined ? 'lane.chartLabelNoPeak' : 'lane.chartLabel', {
        name: row.name, admitted: tally[0], delayed: tally[1], denied: tally[2],
        time: this.t.number(this.time, 2), peak, span: this.window,
      });
    }
  }

  /** Each lane's name and its counts by the moment shown: [admitted, delayed, denied]. */
  get tallies() {
    return this.parts.map(({ row, tally }) => ({ name: row.name, tally: [...tally] }));
  }

  /** Moves by `seconds` (a finite number; negative: back), stopping at the axis's ends, as Play does. */
  step(seconds) {
    checkSeconds('seconds', seconds, this.duration);
    this.pause();
    this.#show(this.time + seconds);
  }

  play() {
    if (this.playing) return;
    if (this.time >= this.duration) this.#show(0);
    this.playing = true;
    let last = performance.now();
    const tick = (now) => {
      if (!this.playing) return;
      this.#show(this.time + (now - last) / 1000);
      last = now;
      if (this.time >= this.duration) this.pause();
      else this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
    this.onTime?.(this.time);
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    cancelAnimationFrame(this.frame);
    this.#describe();
    this.onTime?.(this.time);
  }

  destroy() {
    this.pause();
    this.resize.disconnect();
    this.element.remove();
  }
}
