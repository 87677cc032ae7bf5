// Benchmark page for bench/run.mjs: 20 diagram instances that all animate at once.
// Each starts empty with B = 1000 and r = 1 token/s, so each one keeps refilling, and so keeps
// its requestAnimationFrame loop running, for the whole measurement (about 1000 s).
// The page exposes `window.bench = { handles, ready, error, scale }`; no inline script (strict CSP).
import init from '../pkg/bucketlab.js';
import { mountDiagram } from '../element/mount.js';

const COUNT = 20;
const COLUMNS = 7; // 7 × 3 fills a 16:9 viewport best with cells of the widget's shape
const CELL_WIDTH = 694; // the width of the lesson's column at a 1280 px wide viewport

// Every instance must stay on screen: the widget stops its frame loop while it is scrolled out of
// view (IntersectionObserver). So the 20 diagrams are laid out at the size they have in the lesson
// on a desktop, and the whole grid is then scaled down with a CSS transform to fit in the
// viewport. A transform changes neither the DOM, style nor layout work of a frame, only how many
// pixels get rasterized (off the main thread). Styles go through the CSSOM, which a strict CSP
// allows (no <style> element, no style="" attribute).
const grid = document.getElementById('grid');
Object.assign(grid.style, {
  display: 'grid',
  gridTemplateColumns: `repeat(${COLUMNS}, ${CELL_WIDTH}px)`,
  gap: '16px',
  width: 'max-content',
  transformOrigin: '0 0',
});
Object.assign(document.body.style, { margin: '0', overflow: 'hidden' });

window.bench = { handles: [], ready: false, error: null, scale: 1 };

/** Scales the grid so that all of it is inside the viewport. */
function fitToViewport() {
  const scale = Math.min(1, innerWidth / grid.offsetWidth, innerHeight / grid.offsetHeight);
  grid.style.transform = `scale(${scale})`;
  window.bench.scale = scale;
}

try {
  await init();
  for (let i = 0; i < COUNT; i++) {
    const mount = document.createElement('div');
    mount.className = 'bl-mount';
    mount.dataset.capacity = '1000';
    mount.dataset.refillRate = '1';
    mount.dataset.tokens = '0';
    mount.dataset.lang = 'en';
    grid.append(mount);
    window.bench.handles.push(mountDiagram(mount));
  }
  if (new URLSearchParams(location.search).get('fit') !== '0') {
    fitToViewport();
    addEventListener('resize', fitToViewport);
  }
  window.bench.ready = true;
} catch (error) {
  window.bench.error = String(error && error.message ? error.message : error);
}
