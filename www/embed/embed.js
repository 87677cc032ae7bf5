// The iframe page: its one <bucket-lab> (in the page with its build-time markup) configured by the
// URL's query parameters (the element's attribute names), and its height sent to the host page so
// embed-resizer.js can fit the iframe.
import { ATTRIBUTES } from '../element/bucket-lab.js';
import tables from '../i18n/locales/element.js';
import { langOf, pickLang, translator } from '../i18n/translate.js';

/** The message the host's embed-resizer.js accepts (and nothing else). */
export const RESIZE_MESSAGE = 'bucketlab:resize';
/** What the resizer sends when it starts, asking for a fresh report. */
export const MEASURE_MESSAGE = 'bucketlab:measure';

const params = new URLSearchParams(location.search);
const element = document.querySelector('#embed bucket-lab');
// An address has no boolean attributes: `paused`, `paused=true` or `paused=1` stop time,
// `paused=false` or `paused=0` let it run; any other value goes to the element, which names it.
const PAUSED = { '': '', true: '', 1: '', false: null, 0: null };
for (const name of ATTRIBUTES) {
  if (!params.has(name)) continue;
  const given = params.get(name);
  const value = name === 'paused' && Object.hasOwn(PAUSED, given) ? PAUSED[given] : given;
  if (value !== null) element.setAttribute(name, value);
}
if (params.has('lang')) document.documentElement.lang = pickLang(params.get('lang'));
document.title = `${translator(tables, langOf())('frameTitle')} · bucketlab`;

if (window.parent !== window) {
  let sent = -1;
  const report = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === sent) return;
    sent = height;
    // The height is not secret, and the host's origin is unknown here: the receiver checks ours.
    window.parent.postMessage({ type: RESIZE_MESSAGE, height }, '*');
  };
  new ResizeObserver(report).observe(document.body);
  // The host's resizer asks again when it starts after this page's first report.
  window.addEventListener('message', (event) => {
    if (event.source === window.parent && event.data?.type === MEASURE_MESSAGE) {
      sent = -1;
      report();
    }
  });
}
