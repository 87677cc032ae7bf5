// The lesson text per algorithm and the comparison table, from the locale tables.
import { el } from './dom.js';
import { ALGORITHMS } from './comparison.js';

export function renderLesson(root, t) {
  const cards = el('dl', { class: 'lab-algorithms' }, ALGORITHMS.flatMap((id) => [
    el('dt', {}, t(`names.${id}`)),
    el('dd', {}, t(`lesson.${id}`)),
  ]));
  const columns = ['memory', 'burst', 'precision', 'use'];
  const table = el('table', { class: 'lab-table stack-table' }, [
    el('caption', {}, t('table.caption')),
    el('thead', {}, el('tr', {}, [t('table.algorithm'), ...columns.map((c) => t(`table.${c}`))]
      .map((text) => el('th', { scope: 'col' }, text)))),
    el('tbody', {}, ALGORITHMS.map((id) => el('tr', { 'data-algorithm': id }, [
      el('th', { scope: 'row', 'data-label': t('table.algorithm') }, t(`names.${id}`)),
      ...t.raw(`table.rows.${id}`).map((text, i) => el('td', { 'data-label': t(`table.${columns[i]}`) }, text)),
    ]))),
  ]);
  root.replaceChildren(
    cards,
    el('div', { class: 'table-wrap lab-table-wrap', role: 'region', 'aria-label': t('table.caption'), tabindex: 0 }, table),
  );
}
