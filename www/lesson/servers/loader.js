// The several-servers widget's entry point on the page: tiny, so the page stays light. The widget
// (servers.js, its simulation and words) loads only when the section comes near (www/lesson/lazy.js).
import { lazyPart } from '../lazy.js';
import { keptPart } from '../kept-parts.js';

const mount = document.getElementById('servers-widget');

lazyPart({
  mount,
  styles: [new URL('./servers.css', import.meta.url).href],
  key: 'servers',
  loader: 'loadServers',
  load: () => import('./servers.js').then(({ startServers }) => startServers(mount, keptPart('servers'))),
});
