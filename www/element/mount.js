// mountDiagram as hosts get it. The wasm view's mountDiagram attaches to the widget's build-time
// markup and throws on a bad data-* attribute; this one first puts that markup (element/markup.js,
// generated from src/view/markup.rs) into a root that lacks it, hands the clicks queued before
// the module arrived (early.js) to the core at their own times, and shows a mount error in the
// root (in the root's language), so a page never keeps a blank space where the diagram should be.
// The lesson, the <bucket-lab> element and the npm package's `mountDiagram` all mount through it.
import './early.js';
import './range-touch.js';
import { checkSetting, mountDiagram as mountBare } from '../pkg/bucketlab.js';
import tables from '../i18n/locales/element.js';
import { cut, langOf, languageOf, translator } from '../i18n/translate.js';
import { showError } from './error-box.js';
import markup from './markup.js';
import { misspelledOf } from './misspelled.js';

/** The settings mountDiagram reads from its root's data-* attributes. */
const DATA_SETTINGS = ['capacity', 'refill-rate', 'tokens', 'lang', 'paused'];
/**
 * The values `paused` (the element's) and `data-paused` take: present (empty, "paused", as HTML
 * writes a boolean, or "true") stops time; "false" (a framework's false boolean) lets it run.
 */
export const PAUSED_VALUES = ['', 'paused', 'true', 'false'];
/** Why the setting `name` may not be `given` (not one of PAUSED_VALUES), for scripts. */
export const pausedRefused = (name, given) => `${name} must be present with no value (or "true") to stop time, "false" or absent to let it run, got "${cut(given)}"`;
/**
 * Settings of <bucket-lab> that mountDiagram does not read, and the handle's call that does it
 * (refused rather than ignored: an author moving from the element would lose them unseen). The
 * element's `theme` and `view` are left to the page: data-theme and data-view are common names of
 * a page's own.
 */
const ELEMENT_ONLY = {
  cost: (value) => `setCost(${value})`,
  controls: (value) => `showControls("${value}")`,
};

let instances = 0;

/** The build's markup in `lang` (a key of markup.js), its element ids made unique by `id`. */
function html(lang, id) {
  if (!Object.hasOwn(markup, lang) || !/^bl-\d+$/.test(id)) throw new TypeError(`no widget markup for ${lang} with id ${id}`);
  return markup[lang].replaceAll('{id}', id);
}

/**
 * The Trusted Types policy named "bucketlab" (undefined: not asked for yet; null: none, the
 * browser has no Trusted Types or the page's trusted-types list does not allow the name). It
 * builds the markup itself from the build's (src/view/markup.rs), so it blesses no other HTML.
 * Asked for on every page with Trusted Types, as a page cannot tell whether it requires them
 * without a violation of its own.
 */
let policy;
function trustedTypesPolicy() {
  if (policy === undefined) {
    try {
      policy = globalThis.trustedTypes?.createPolicy('bucketlab', { createHTML: (_input, lang, id) => html(lang, id) }) ?? null;
    } catch {
      policy = null;
    }
  }
  return policy;
}

/** Puts the widget's markup in `lang` into `root`, replacing what it holds. */
export function insertMarkup(root, lang) {
  instances += 1;
  const id = `bl-${instances}`;
  const trusted = trustedTypesPolicy();
  try {
    root.innerHTML = trusted ? trusted.createHTML('', lang, id) : html(lang, id);
  } catch (error) {
    if (!/TrustedHTML/i.test(String(error?.message))) throw error;
    throw Object.assign(new Error("bucketlab: this page's Content-Security-Policy requires Trusted Types (require-trusted-types-for 'script'), " +
      "and the diagram's markup needs its policy: add bucketlab to the trusted-types directive (trusted-types bucketlab; " +
      "and 'allow-duplicates' if the page loads two copies of the element)", { cause: error }),
    // What the error box shows, in the diagram's language, as for the other policies' refusals.
    { trustedTypes: true, localized: translator(tables, lang)('trustedTypes') });
  }
}

/**
 * Mounts the diagram into `root` (see the wasm module's mountDiagram), its lesson time 0 at
 * `sinceMs` (a `performance.now()` time; default now) or at the first click queued before the
 * module arrived, whichever is earlier; shows and rethrows its error. A root that is no element,
 * or holds a diagram mounted and not freed (a framework that mounts twice), throws and is left
 * as it is: two diagrams would answer one widget's clicks. `prepare(diagram)`, if given, runs
 * before the queued clicks are decided: the element sets its cost there, which no data-* carries.
 */
export function mountDiagram(root, sinceMs, prepare) {
  // An element of any document (an iframe's too, whose Element is another).
  if (root?.nodeType !== Node.ELEMENT_NODE) {
    const given = root === null || root === undefined ? String(root)
      : typeof root === 'object' ? (root.constructor?.name ?? 'an object')
        : typeof root === 'string' ? `a string "${cut(root)}"` : `a ${typeof root} (${cut(String(root))})`;
    throw new TypeError(`root must be the element to mount the diagram in, got ${given}`);
  }
  if (root.querySelector('.bl-widget[data-live]')) {
    throw new Error('root already holds a mounted diagram: free() it before mounting another there');
  }
  try {
    const [refused] = namingErrors(root);
    if (refused) throw refused;
    if (sinceMs !== undefined && !Number.isFinite(sinceMs)) {
      const given = typeof sinceMs === 'number' ? String(sinceMs) : `a value of type ${sinceMs === null ? 'null' : typeof sinceMs}`;
      throw new TypeError(`sinceMs must be a finite number (a performance.now() time) or undefined, got ${given}`);
    }
    // The clicks queued on the markup there, taken before markup in another language replaces it
    // (embed.html's build-time markup is Portuguese; its address may ask for English).
    const queued = window.bucketlabEarly.take(root.querySelector('.bl-widget'));
    const lang = langOf(root);
    if (root.querySelector('.bl-widget')?.lang !== lang) insertMarkup(root, lang);
    const since = [sinceMs, queued[0]].filter((ms) => ms !== undefined);
    const diagram = mountBare(root, since.length ? Math.min(...since) : undefined);
    prepare?.(diagram);
    for (const at of queued) diagram.sendAt(at);
    return diagram;
  } catch (error) {
    const t = translator(tables, wordsLang(root));
    showError(root, t('buildFailed'), mountErrors(root, error), t.lang);
    throw error;
  }
}

/**
 * The language `root`'s messages are in: its `data-lang` when that is one the lesson speaks, else
 * its place's (a refused `data-lang="fr"` is told in the page's language).
 */
function wordsLang(root) {
  const given = root.getAttribute('data-lang');
  return given === null || languageOf(given) ? langOf(root) : langOf(root.parentElement ?? undefined);
}

/** The error for `root`'s `data-lang` when it names no language the lesson speaks, else null. */
function badLang(root) {
  const given = root.getAttribute('data-lang');
  return given === null || languageOf(given) ? null : Object.assign(
    new TypeError(`data-lang must be "pt-BR", "en" or another tag of those languages (en-GB, pt-PT), got "${cut(given)}"`),
    { localized: translator(tables, wordsLang(root))('badLang', { name: 'data-lang', value: cut(given) }) });
}

/**
 * The errors for `root`'s data-* names that look like a misspelled setting (data-capcity,
 * data-refill_rate, data-refillRate: HTML lowercases it), which would leave its default in place
 * unseen, then for its `data-lang`. Any other data-* is the page's own (data-testid, data-v-…).
 */
function namingErrors(root) {
  const t = translator(tables, wordsLang(root));
  const misspelled = root.getAttributeNames().filter((name) => /^data-[a-z][a-z0-9_-]*$/.test(name)).flatMap((name) => {
    const known = misspelledOf(name.slice('data-'.length), DATA_SETTINGS, { close: true });
    if (!known) return [];
    const message = `"${name}" is not a setting of the diagram; did you mean "data-${known}"?`;
    return [Object.assign(new TypeError(message), { localized: t('misspelledAttribute', { name, known: `data-${known}` }) })];
  });
  const elementOnly = Object.keys(ELEMENT_ONLY).filter((name) => root.hasAttribute(`data-${name}`)).map((name) => {
    const value = cut(root.getAttribute(`data-${name}`));
    const message = `data-${name} is a setting of <bucket-lab> that mountDiagram does not read; after mounting, call the handle's ${ELEMENT_ONLY[name](value)}`;
    return Object.assign(new TypeError(message), { localized: t('elementOnly', { name: `data-${name}`, fix: t(`elementOnlyFix.${name}`, { value }) }) });
  });
  const paused = root.getAttribute('data-paused');
  const pausedError = paused === null || PAUSED_VALUES.includes(paused) ? [] : [Object.assign(
    new TypeError(pausedRefused('data-paused', paused)), { localized: t('badPaused', { name: 'data-paused', value: cut(paused) }) })];
  const langError = badLang(root);
  return [...misspelled, ...elementOnly, ...pausedError, ...(langError ? [langError] : [])];
}

/**
 * What to show for `error`, thrown by mounting on `root`: every bad setting among `root`'s data-*
 * attributes when there are several (the core's mount stops at the first), so that a reader who
 * got two wrong sees both at once, as the element and embed.html show them; else `error`.
 */
export function mountErrors(root, error) {
  const errors = namingErrors(root);
  const lang = wordsLang(root);
  let capacity;
  for (const name of ['capacity', 'refill-rate', 'tokens']) {
    const text = root.getAttribute(`data-${name}`);
    if (text === null) continue;
    try {
      const value = checkSetting(name, text, capacity, lang);
      if (name === 'capacity') capacity = value;
    } catch (refusal) {
      errors.push(refusal);
    }
  }
  return errors.length > 1 ? errors : error;
}
