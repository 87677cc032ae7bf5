// The defense sections' entry point: tiny. The flood demo and the recap's checks (the lab's wasm
// module, which holds simulateFlood, and their widgets) load only when they come near
// (www/lesson/lazy.js). They share the lab's stylesheet for form and buttons, the clients' for
// cards and legends, and the lesson's quiz block (quiz.css) for the question boxes.
import { lazyPart } from '../lazy.js';

const flood = document.getElementById('flood-lab');
const recap = document.getElementById('recap-checks');
// Both parts' stylesheets: either may come first (a reader who jumps to the recap).
const styles = [
  new URL('../lab/lab.css', import.meta.url).href,
  new URL('../clients/clients.css', import.meta.url).href,
  new URL('./defense.css', import.meta.url).href,
  new URL('../quiz.css', import.meta.url).href,
];

lazyPart({
  mount: flood,
  styles,
  key: 'defense',
  loader: 'loadDefense',
  load: () => import('./app.js').then(({ mountFlood }) => mountFlood(flood)),
});

lazyPart({
  mount: recap,
  // The recap's line is beside its list, not in it.
  placeholder: recap?.parentElement.querySelector(':scope > .df-recap-noscript'),
  styles,
  key: 'recap',
  loader: 'loadRecap',
  load: () => import('./app.js').then(({ mountRecap }) => mountRecap(recap)),
});
