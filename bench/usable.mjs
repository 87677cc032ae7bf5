// "Main control usable" (BENCHMARKS.md): the time from navigation start until the page's main
// control, its send button, is present, enabled and a click on it is taken by the page, over cold
// loads (a fresh browser context each: empty cache). Measured for the lesson (the hero's button on
// the first screen), embed.html and a bare one-button static page (bench/pages/bench-bare.html)
// served by the same server. Beside it, each page's first contentful paint: "usable" counts a
// button the parser has made and a click the page takes, which can come before the first frame
// shows it (a long page's layout and its style sheets hold the paint), so a person sees the button
// at max(usable, first paint).
import { openPage } from '../tests/e2e/harness.mjs';
import { median } from './frames.mjs';

/** The pages measured: where, and the baseline first. */
export const USABLE_PAGES = [
  { name: 'bare one-button page', path: 'bench/bench-bare.html' },
  { name: 'lesson (index.html, the hero)', path: 'index.html' },
  { name: 'embed.html', path: 'embed.html' },
];

/**
 * Installed before any page script. From the first moment, every 4 ms or so and at each DOM
 * change: find the main control (the hero's send button, the embed's element's, or the page's
 * one button); once it is there and enabled, click it and see whether the page took the click: a
 * widget's status line changed, or early.js queued it for the wasm, or the bare page's output
 * changed. The first time a click is taken is `__usable` (ms from navigation start); when the
 * widget's wasm attached (its `data-live` mark) is `__live`.
 */
function probe() {
  const control = () => document.querySelector('#hero-widget .bl-send')
    ?? document.querySelector('bucket-lab')?.shadowRoot?.querySelector('.bl-send')
    ?? document.querySelector('body > button');
  const state = (button) => {
    const root = button.closest('.bl-widget') ?? button.getRootNode();
    return `${window.bucketlabEarly?.size ?? 0}|${root.querySelector('.bl-status, output')?.textContent}`;
  };
  const check = () => {
    const button = control();
    if (window.__live === undefined && button?.closest('.bl-widget')?.hasAttribute('data-live')) {
      window.__live = performance.now();
    }
    if (window.__usable === undefined && button && !button.disabled && button.isConnected) {
      const before = state(button);
      button.click();
      if (state(button) !== before) window.__usable = performance.now();
    }
    const widget = button?.closest('.bl-widget');
    if (window.__usable === undefined || (widget && window.__live === undefined)) setTimeout(check, 0);
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
  check();
}

/**
 * The first contentful paint (ms from navigation start) of one cold load of `url`, without the
 * probe: its polling and its observer's callbacks during the parse would change what is measured.
 */
async function firstPaint(browser, url) {
  const page = await openPage(browser);
  try {
    await page.goto(url);
    const paint = await page.evaluate(() => new Promise((resolve) => {
      new PerformanceObserver((list) => {
        const entry = list.getEntriesByName('first-contentful-paint')[0];
        if (entry) resolve(entry.startTime);
      }).observe({ type: 'paint', buffered: true });
    }));
    if (page.problems.length) throw new Error(`${url}: ${page.problems.join('; ')}`);
    return paint;
  } finally {
    await page.context().close();
  }
}

/**
 * Median "usable" and "live" ms of `runs` cold loads of each page, and first paint of as many
 * more loads without the probe, with the ratios to the bare
 * page. The pages take turns (bare, lesson, embed, bare, …) so that a busy machine slows them alike.
 */
export async function measureUsable(browser, baseUrl, runs, log) {
  const samples = USABLE_PAGES.map(() => ({ usable: [], live: [], paint: [] }));
  for (let i = 0; i < runs; i++) {
    for (const [k, { path }] of USABLE_PAGES.entries()) {
      const page = await openPage(browser);
      try {
        await page.addInitScript(probe);
        await page.goto(`${baseUrl}${path}`);
        await page.waitForFunction(
          () => window.__usable !== undefined && (window.__live !== undefined || !!document.querySelector('body > button')),
          null, { timeout: 30_000 });
        const times = await page.evaluate(() => ({ usable: window.__usable, live: window.__live ?? null }));
        if (page.problems.length) throw new Error(`${path}: ${page.problems.join('; ')}`);
        samples[k].usable.push(times.usable);
        if (times.live !== null) samples[k].live.push(times.live);
      } finally {
        await page.context().close();
      }
      samples[k].paint.push(await firstPaint(browser, `${baseUrl}${path}`));
    }
  }
  const results = USABLE_PAGES.map(({ name, path }, k) => {
    const { usable, live, paint } = samples[k];
    const row = { name, path, usable: median(usable), live: live.length ? median(live) : null, paint: median(paint) };
    log?.(`usable: ${name}: ${row.usable.toFixed(1)} ms (${usable.map((v) => v.toFixed(0)).join(', ')})` +
      (row.live === null ? '' : `, wasm attached ${row.live.toFixed(1)} ms`) + `, first paint ${row.paint.toFixed(1)} ms`);
    return row;
  });
  const [bare, barePaint] = [results[0].usable, results[0].paint];
  return results.map((row) => ({ ...row, ratio: row.usable / bare, paintRatio: row.paint / barePaint }));
}
