// Benchmark page for bench/run.mjs: 20 diagram instances that all animate at once.
// Each starts empty with B = 1000 and r = 1 token/s, so each one keeps refilling, and so keeps
// its requestAnimationFrame loop running, for the whole measurement (about 1000 s).
// The page exposes `window.bench = { handles, ready, error }`; no inline script (strict CSP).
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

window.bench = { handles: [], ready: false, error: null };

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
  window.bench.ready = true;
} catch (error) {
  window.bench.error = String(error && error.message ? error.message : error);
}
