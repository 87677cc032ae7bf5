// The one way every component picks its language and fills in its words. The words themselves are
// locales/<lang>/<product>.json at the repository's root; scripts/locales.mjs turns each product's
// tables into www/i18n/locales/<product>.js (`export default { 'pt-BR': {…}, en: {…} }`), which a
// component imports statically: no fetch, so it works under a strict CSP, from npm and from
// dist/'s hashed names, and its words are there at first paint.

/** The languages, the lesson's first one first. */
export const LANGS = ['pt-BR', 'en'];
/** What a missing or unknown language falls back to. */
export const DEFAULT_LANG = 'pt-BR';

/** 'pt-BR' or 'en' for a language tag, by its first part (pt, pt-PT, en-GB…); null for others. */
export function supportedLang(tag) {
  const primary = String(tag ?? '').toLowerCase().split('-')[0];
  return LANGS.find((lang) => lang.toLowerCase().split('-')[0] === primary) ?? null;
}

/** 'pt-BR' or 'en' for a language tag; anything else is Brazilian Portuguese. */
export function pickLang(tag) {
  return supportedLang(tag) ?? DEFAULT_LANG;
}

/**
 * The language `node` speaks: its `data-lang`, else the nearest `lang` attribute (the page's
 * `<html lang>` at the top), else Brazilian Portuguese.
 */
export function langOf(node = document.documentElement) {
  return pickLang(node.getAttribute('data-lang') ?? node.closest('[lang]')?.getAttribute('lang'));
}

/**
 * `text` with every `{name}` replaced by `values[name]`: numbers as `lang` writes them (2,5 in
 * Portuguese, at most 3 decimals), anything else as text. A mark with no value is left as it is.
 */
export function fill(text, values = {}, lang = DEFAULT_LANG) {
  const numbers = new Intl.NumberFormat(lang, { maximumFractionDigits: 3 });
  return text.replace(/\{(\w+)\}/g, (mark, name) => {
    const value = values[name];
    if (value === undefined || value === null) return mark;
    return typeof value === 'number' ? numbers.format(value) : String(value);
  });
}

/**
 * A translator for one product's `tables` ({ 'pt-BR': {…}, en: {…} }) in `lang`:
 * `t('quiz.score', { correct: 1 })` (dotted keys reach into nested tables). A key with no text
 * shows as ⟦key⟧, which the tests look for, instead of breaking the component.
 * `t.raw(key)` is the value itself (lists too), `t.number(value, digits)` writes a number the
 * language's way, and `t.lang` is the language.
 */
export function translator(tables, lang) {
  const table = tables[pickLang(lang)];
  const raw = (key) => key.split('.').reduce((node, part) => (node === null || node === undefined ? undefined : node[part]), table);
  const t = (key, values) => {
    const text = raw(key);
    return typeof text === 'string' ? fill(text, values, t.lang) : `⟦${key}⟧`;
  };
  t.raw = raw;
  t.number = (value, digits = 3) => new Intl.NumberFormat(t.lang, { maximumFractionDigits: digits }).format(value);
  t.lang = pickLang(lang);
  return t;
}
