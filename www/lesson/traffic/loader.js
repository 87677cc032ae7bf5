// The "Your traffic" section's entry point: tiny. The section (its form, and the worker that loads
// the replay's wasm module) starts only when it comes near (www/lesson/lazy.js).
import { lazyPart } from '../lazy.js';

const mount = document.getElementById('traffic-lab');

lazyPart({
  mount,
  styles: [new URL('../lab/lab.css', import.meta.url).href, new URL('./traffic.css', import.meta.url).href],
  key: 'traffic',
  loader: 'loadTraffic',
  load: () => import('./app.js').then(({ mountTraffic }) => mountTraffic(mount)),
});
