// The iframe page: its one <bucket-lab> (in the page with its build-time markup) configured by the
// URL's query parameters (the element's attribute names), and its height sent to the host page so
// embed-resizer.js can fit the iframe.
import { ATTRIBUTES } from '../element/bucket-lab.js';
import tables from '../i18n/locales/element.js';
import { cut, langOf, pickLang, translator } from '../i18n/translate.js';

/** The message the host's embed-resizer.js accepts (and nothing else). */
const RESIZE_MESSAGE = 'bucketlab:resize';
/** What the resizer sends when it starts, asking for a fresh report. */
const MEASURE_MESSAGE = 'bucketlab:measure';

const HOST_PARAMETERS = ['fbclid', 'gclid', 'msclkid', 'mc_cid', 'mc_eid', '_ga', '_gl'];
/** Parameters an LMS, a link shortener or analytics add to an address: `utm_*` and click ids. */
function appendedByHosts(name) {
  return name.startsWith('utm_') || HOST_PARAMETERS.includes(name);
}
const params = new URLSearchParams(location.search);
const element = document.querySelector('#embed bucket-lab');
// The element's refusals then speak of settings in the address, not of attributes.
element.addressSettings = true;
// An address has no boolean attributes: `paused`, `paused=true` or `paused=1` stop time,
// `paused=false` or `paused=0` let it run; any other value is refused below, with the address's rules.
const PAUSED = { '': '', true: '', 1: '', false: null, 0: null };
const badPaused = params.has('paused') && !Object.hasOwn(PAUSED, params.get('paused'));
for (const name of ATTRIBUTES) {
  if (!params.has(name) || (name === 'paused' && badPaused)) continue;
  const given = params.get(name);
  const value = name === 'paused' ? PAUSED[given] : given;
  if (value !== null) element.setAttribute(name, value);
}
// Pinned in data-lang too, which the page's words follow: a browser's page translation rewrites
// <html lang> (to es, say), and the widget would take that for a switch to English.
if (params.has('lang')) document.documentElement.lang = document.documentElement.dataset.lang = pickLang(params.get('lang'));
// The frame's own page takes the theme's colour scheme too: a frame whose scheme differs from its
// host page's is painted opaque, so a dark widget on a dark host sat on a white slab (below it,
// and at its rounded corners). Set from script, which a strict style-src allows.
const SCHEMES = { light: 'light', dark: 'dark', auto: 'light dark' };
if (Object.hasOwn(SCHEMES, params.get('theme') ?? '')) document.documentElement.style.colorScheme = SCHEMES[params.get('theme')];
const t = translator(tables, langOf());
document.title = `${t('frameTitle')} · bucketlab`;
document.getElementById('embed-title').textContent = t('frameTitle');

// What the address gets wrong as an address, every kind at once: a misspelled setting
// (`refill_rate`, `Capacity`), refused as the mdBook and Hugo integrations do (ignored, it would
// leave a default in its place unseen); a setting given twice (which one would count?); a
// `paused` value an address does not use. What hosts and link trackers append to any address is
// no setting and is let through.
const names = [...new Set(params.keys())].filter((name) => !appendedByHosts(name));
const refusals = [];
const unknown = names.filter((name) => !ATTRIBUTES.includes(name));
if (unknown.length > 0) {
  const known = ATTRIBUTES.join(', ');
  // Quoted cut short, as every value a message quotes: an address can hold any text.
  console.error(`bucketlab embed: unknown setting${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${cut(n)}"`).join(', ')}; known: ${known}`);
  refusals.push([t('unknownSetting', { name: cut(unknown.join(', ')), count: unknown.length }), t('knownSettings', { known })]);
}
const repeated = names.filter((name) => ATTRIBUTES.includes(name) && params.getAll(name).length > 1);
if (repeated.length > 0) {
  console.error(`bucketlab embed: ${repeated.map((n) => `"${n}" (${params.getAll(n).map((v) => `"${cut(v)}"`).join(', ')})`).join(', ')} given more than once; give each setting once`);
  refusals.push([t('repeatedSetting', { name: repeated.join(', '), count: repeated.length }), t('onceEach')]);
}
// A bad `paused` is named with the settings the element refuses (cost=9 with B = 5, say), under one title.
const invalid = [];
if (badPaused) {
  const value = cut(params.get('paused'));
  const message = `paused must be empty, "true", "1", "false" or "0" in the address, got "${value}"`;
  console.error(`bucketlab embed: ${message}`);
  invalid.push({ attribute: 'paused', message, localized: t('badPausedAddress', { value }) });
}
if (refusals.length > 0 || invalid.length > 0) element.refuseSettings(refusals, invalid);

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
