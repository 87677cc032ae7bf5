// Benchmark page for bench/run.mjs: 20 diagram instances that all animate at once.
// Each starts empty with B = 1000 and r = 1 token/s, so each one keeps refilling, and so keeps
// its requestAnimationFrame loop running, for the whole measurement (about 1000 s).
// The page exposes `window.bench = { handles, ready, error }`; no inline script (strict CSP).
import init, { mountDiagram } from './pkg/bucketlab.js';

const COUNT = 20;
const grid = document.getElementById('grid');
// Laid out in a grid of small cells so that all 20 diagrams are inside a 1280 × 720 viewport
// and are really painted, not culled as off-screen (the styling lives here, not in a <style>).
Object.assign(grid.style, {
  display: 'grid',
  gridTemplateColumns: 'repeat(5, 240px)',
  gap: '8px',
  margin: '8px',
});

window.bench = { handles: [], ready: false, error: null };

try {
  await init();
  for (let i = 0; i < COUNT; i++) {
    const cell = document.createElement('div');
    cell.className = 'bench-cell';
    Object.assign(cell.style, { height: '170px', overflow: 'hidden' });
    const mount = document.createElement('div');
    mount.className = 'bl-mount';
    mount.dataset.capacity = '1000';
    mount.dataset.refillRate = '1';
    mount.dataset.tokens = '0';
    mount.dataset.lang = 'en';
    cell.append(mount);
    grid.append(cell);
    window.bench.handles.push(mountDiagram(mount));
  }
  window.bench.ready = true;
} catch (error) {
  window.bench.error = String(error && error.message ? error.message : error);
}
