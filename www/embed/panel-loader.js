// The "Embed this diagram" panel's entry on the lesson page: tiny, so the page stays light. The
// panel (embed-panel.js, its words) loads when the diagram's section comes near, as the lesson's
// other parts do (www/lesson/lazy.js), with its stylesheet.
import { lazyPart } from '../lesson/lazy.js';

const mount = document.getElementById('embed-panel');

lazyPart({
  mount,
  styles: [new URL('./embed-panel.css', import.meta.url).href],
  key: 'embedPanel',
  loader: 'loadEmbedPanel',
  load: () => import('./embed-panel.js').then(({ startEmbedPanel }) => startEmbedPanel(mount)),
});
