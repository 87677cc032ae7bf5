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

const HOST_PARAMETERS = ['fbclid', 'gclid', 'msclkid', 'mc_cid', 'mc_eid', '_ga', '_gl'];
/** Parameters an LMS, a link shortener or analytics add to an address: `utm_*` and click ids. */
export function appendedByHosts(name) {
  return name.startsWith('utm_') || HOST_PARAMETERS.includes(name);
}
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
const t = translator(tables, langOf());
document.title = `${t('frameTitle')} · bucketlab`;
document.getElementById('embed-title').textContent = t('frameTitle');

// A misspelled setting (`refill_rate`, `Capacity`) is refused, naming it and the known ones, as
// the mdBook and Hugo integrations do: ignored, it would leave a default in its place unseen.
// What hosts and link trackers append to any address is no setting and is let through.
const unknown = [...new Set(params.keys())].filter((name) => !ATTRIBUTES.includes(name) && !appendedByHosts(name));
if (unknown.length > 0) {
  const known = ATTRIBUTES.join(', ');
  console.error(`bucketlab embed: unknown setting${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; known: ${known}`);
  element.refuseSettings(t('unknownSetting', { name: unknown.join(', '), count: unknown.length }), t('knownSettings', { known }));
}

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
