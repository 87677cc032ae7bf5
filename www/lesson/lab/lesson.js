// The lesson text per algorithm, from the locale tables. The algorithms' comparison table is the
// section's own, in the page's markup (lesson/template.html), so it reads without JavaScript too.
import { el } from './dom.js';
import { ALGORITHMS } from './comparison.js';

export function renderLesson(root, t) {
  const cards = el('dl', { class: 'lab-algorithms' }, ALGORITHMS.flatMap((id) => [
    el('dt', {}, t(`names.${id}`)),
    el('dd', {}, t(`lesson.${id}`)),
  ]));
  root.replaceChildren(cards);
}
