// The clients section's entry point: tiny. The section itself (the lab's wasm module, which holds
// simulateClients, and the widgets) loads only when it comes near (www/lesson/lazy.js). It shares
// the lab's stylesheet for its form and buttons.
import { lazyPart } from '../lazy.js';

const mount = document.getElementById('clients-lab');

lazyPart({
  mount,
  styles: [new URL('../lab/lab.css', import.meta.url).href, new URL('./clients.css', import.meta.url).href, new URL('../quiz.css', import.meta.url).href],
  key: 'clients',
  loader: 'loadClients',
  load: () => import('./app.js').then(({ mountClients }) => mountClients(mount)),
});
