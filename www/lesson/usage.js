// The Usage tab's response block follows the diagram's last decision (`bucketlab:decision`).
import { formatNumber, t } from './strings.js';

/** Shows each decision of the widget mounted in `root` in the response block. */
export function followDecisions(root) {
  const head = document.querySelector('.response-head code');
  const source = document.querySelector('.response-source');
  root.addEventListener('bucketlab:decision', (event) => {
    const { head: text, capacity, refillRate, cost } = event.detail;
    head.textContent = text;
    source.textContent = t('response_live', { b: formatNumber(capacity), r: formatNumber(refillRate), c: formatNumber(cost) });
    head.closest('pre').dataset.status = String(event.detail.status);
  });
}
