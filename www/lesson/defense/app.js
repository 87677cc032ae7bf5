// Mounts the flood demo and the recap's checks on the lab's wasm module (simulateFlood, simulate,
// TokenBucket). The language is <html lang> at mount; `bucketlab:langchange` re-renders.
import init, { simulate, simulateFlood, TokenBucket } from '../../pkg/bucketlab_lab.js';
import tables from '../../i18n/locales/defense.js';
import { langOf, pickLang, translator } from '../../i18n/translate.js';
import { notLoaded } from '../../i18n/refusal.js';
import { el } from '../lab/dom.js';
import { FloodDemo } from './flood.js';
import { renderRecap } from './recap.js';

/**
 * Loads the module once, with a status line in `root` while it loads and an alert if it fails
 * (`words`: the part's own keys for both, `loading` and `loadFailed` under that prefix). `keep`:
 * the lines go after what `root` holds rather than in its place, and a later try replaces the
 * line an earlier one left.
 */
async function ready(root, t, { keep = false, words = '' } = {}) {
  // In a list (the recap's checks, an <ol>), an item of it, which holds the line: a list holds
  // only items, and an item with another role is none.
  const line = (className, role, text) => (/^(OL|UL)$/.test(root.tagName)
    ? el('li', { class: className }, el('p', { role }, text))
    : el('p', { class: className, role }, text));
  const status = line('df-loading', 'status', t(`${words}loading`));
  if (keep) {
    root.querySelector(':scope > .df-load-failed')?.remove();
    root.append(status);
  } else {
    root.replaceChildren(status);
  }
  try {
    await init();
  } catch (error) {
    status.replaceWith(line('lab-error df-load-failed', 'alert', t(`${words}loadFailed`, { message: notLoaded(error, t.lang) })));
    throw error;
  }
  status.remove();
}

/** Calls `render(t)` again whenever the page's language changes. */
function followLanguage(t, render) {
  document.addEventListener('bucketlab:langchange', (event) => {
    const lang = pickLang(event.detail?.lang ?? document.documentElement.lang);
    if (lang !== t.lang) render((t = translator(tables, lang)));
  });
}

export async function mountFlood(root) {
  const t = translator(tables, langOf());
  await ready(root, t);
  const demo = new FloodDemo(root, { simulateFlood, t });
  followLanguage(t, (next) => demo.setLang(next));
  root.classList.add('df-ready');
  return demo.handle;
}

export async function mountRecap(root) {
  const t = translator(tables, langOf());
  await ready(root, t, { keep: true, words: 'recap.' });
  const tools = { simulate, simulateFlood, TokenBucket };
  let questions = renderRecap(root, tools, t);
  followLanguage(t, (next) => { questions = renderRecap(root, tools, next); });
  root.classList.add('df-ready');
  return { get questions() { return questions; } };
}
