// Loads the wasm module and mounts the diagram. Configuration comes from the mount element's
// data-* attributes; the page URL may override them (?capacity=20&refill-rate=2&tokens=0).
import init, { mountDiagram, TokenBucket } from './pkg/bucketlab.js';

const root = document.getElementById('bucket-widget');
const params = new URLSearchParams(location.search);
for (const name of ['capacity', 'refill-rate', 'tokens', 'lang']) {
  if (params.has(name)) root.setAttribute(`data-${name}`, params.get(name));
}

// Console experiments: `new bucketlab.TokenBucket({ capacity: 10, refillRate: 5 })`.
window.bucketlab = { TokenBucket, diagram: null };

try {
  await init();
  window.bucketlab.diagram = mountDiagram(root);
  performance.mark('bucketlab:interactive');
} catch (error) {
  // A configuration error is already shown inside the widget by mountDiagram; anything else
  // (the module failed to load) is shown here so the widget never stays blank.
  if (!root.querySelector('.bl-error')) {
    root.replaceChildren();
    const box = document.createElement('div');
    box.className = 'bl-error';
    box.setAttribute('role', 'alert');
    box.textContent = String(error && error.message ? error.message : error);
    root.append(box);
  }
}
