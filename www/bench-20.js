// Benchmark page for bench/run.mjs: 20 diagram instances that all animate at once.
// Each starts empty with B = 1000 and r = 1 token/s, so each one keeps refilling, and so keeps
// its requestAnimationFrame loop running, for the whole measurement (about 1000 s).
// The page exposes `window.bench = { handles, ready, error, scale }`; no inline script (strict CSP).
import init, { mountDiagram } from './pkg/bucketlab.js';

const COUNT = 20;
const grid = document.getElementById('grid');
// Every instance must stay on screen: the widget stops its frame loop while it is scrolled out of
// view (IntersectionObserver). So the 20 diagrams are laid out at a natural desktop size,
// 5 columns × 4 rows, and the whole grid is then scaled down with a CSS transform to fit in the
// viewport. A transform changes neither the DOM, style nor layout work of a frame, only how many
// pixels get rasterized (off the main thread). Styles go through the CSSOM, which a strict CSP
// allows (no <style> element, no style="" attribute).
const COLUMNS = 5;
const CELL_WIDTH = 480;
Object.assign(grid.style, {
  display: 'grid',
  gridTemplateColumns: `repeat(${COLUMNS}, ${CELL_WIDTH}px)`,
  gap: '16px',
  width: 'max-content',
  transformOrigin: '0 0',
});
document.body.style.margin = '0';
document.body.style.overflow = 'hidden';

/** Scales the grid so that all of it is inside the viewport. */
function fitToViewport() {
  const scale = Math.min(1, innerWidth / grid.offsetWidth, innerHeight / grid.offsetHeight);
  grid.style.transform = `scale(${scale})`;
  window.bench.scale = scale;
}

window.bench = { handles, ready, error }`; no inline script (strict CSP).
import init, { mountDiagram } from './pkg/bucketlab.js';

const COUNT = 20;
const grid = document.getElementById('grid');
// Laid out as 10 × 2 narrow cells so that all 20 diagrams, unclipped, fit in the default
// 1280 × 720 viewport and are really painted rather than skipped as off-screen. The layout is
// set through the CSSOM, which a strict CSP allows (no <style>, no style="" attribute).
Object.assign(grid.style, {
  display: 'grid',
  gridTemplateColumns: 'repeat(10, 120px)',
  gap: '6px',
  margin: '8px',
});

window.bench = { handles: [], ready: false, error: null, scale: 1 };

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
  fitToViewport();
  addEventListener('resize', fitToViewport);
  window.bench.ready = true;
} catch (error) {
  window.bench.error = String(error && error.message ? error.message : error);
}
