// The one way every component picks its language and fills in its words. The words themselves are
// locales/<lang>/<product>.json at the repository's root; scripts/locales.mjs turns each product's
// tables into www/i18n/locales/<product>.js (`export default { 'pt-BR': {…}, en: {…} }`), which a
// component imports statically: no fetch, so it works under a strict CSP, from npm and from
// dist/'s hashed names, and its words are there at first paint.

/** The languages, the lesson's first one first. */
export const LANGS = ['pt-BR', 'en'];
/** What a missing language falls back to (an unknown one falls back to English: `pickLang`). */
const DEFAULT_LANG = 'pt-BR';

/** 'pt-BR' or 'en' for a language tag, by its first part (pt, pt-PT, en-GB…); null for others. */
export function supportedLang(tag) {
  const primary = String(tag ?? '').toLowerCase().split('-')[0];
  return LANGS.find((lang) => lang.toLowerCase().split('-')[0] === primary) ?? null;
}

/**
 * 'pt-BR' or 'en' for a language a host names (the element's `lang`, a mount's `data-lang`), or
 * null: a language tag (letters, digits and hyphens) whose first part is en or pt, in any case
 * (en-GB shows English, pt-PT Brazilian Portuguese). The mdBook and Hugo integrations apply the
 * same rule.
 */
export function languageOf(tag) {
  return /^[a-z0-9-]+$/i.test(tag ?? '') ? supportedLang(tag) : null;
}

/**
 * 'pt-BR' or 'en' for a language tag: Brazilian Portuguese, the lesson's first language, when
 * there is none, and English for a language the lesson does not speak (a reader of a page in
 * German or Spanish is likelier to read English than Portuguese).
 */
export function pickLang(tag) {
  if (tag === null || tag === undefined || String(tag).trim() === '') return DEFAULT_LANG;
  return supportedLang(tag) ?? 'en';
}

/**
 * The language `node` speaks: its `data-lang`, else the nearest `lang` attribute (the page's
 * `<html lang>` at the top), as `pickLang` reads it.
 */
export function langOf(node = document.documentElement) {
  return pickLang(node.getAttribute('data-lang') ?? node.closest('[lang]')?.getAttribute('lang'));
}

/** How numbers are written in the texts, and so which plural form they take. */
const NUMBER_OPTIONS = { maximumFractionDigits: 3 };
/** The Intl objects made so far (see `intl`). */
const made = new Map();
/**
 * `new Kind(lang, options)` (Intl.NumberFormat, Intl.PluralRules…), made once for each language
 * and options: making one costs far more than using it, and texts are filled by the hundred.
 */
export function intl(Kind, lang, options = {}) {
  const key = `${Kind.name} ${lang} ${JSON.stringify(options)}`;
  if (!made.has(key)) made.set(key, new Kind(lang, options));
  return made.get(key);
}

/**
 * The pages' one writer of number text: `value` as `lang` writes it, with at most `digits` decimals
 * (`fixed`: always that many), or to `significant` digits, grouped by thousands unless `group` is
 * false (`{ digits: 20, group: false }`: every digit of a value a sentence quotes, as a snippet
 * beside it writes it). The widget's own rounding (number.rs) is
 * `formatNumber` (lesson/strings.js), a form field's every digit `fieldText` (typed-number.js), both
 * with this language's `decimalMark`.
 */
export function numberText(value, lang, { digits = NUMBER_OPTIONS.maximumFractionDigits, fixed = false, significant, group = true } = {}) {
  const options = significant === undefined
    ? { minimumFractionDigits: fixed ? digits : 0, maximumFractionDigits: digits }
    : { maximumSignificantDigits: significant };
  // −0 (a typed "-0") reads as 0, as the command and the widget write it.
  return intl(Intl.NumberFormat, lang, group ? options : { ...options, useGrouping: false }).format(value === 0 ? 0 : value);
}

/** The character `lang` writes between a number's whole part and its decimals (0,5: ","). */
export const decimalMark = (lang) => intl(Intl.NumberFormat, lang).formatToParts(0.5).find((part) => part.type === 'decimal').value;

/**
 * `text` with every `{name}` replaced by `values[name]`: numbers as `lang` writes them (2,5 in
 * Portuguese, at most 3 decimals), anything else as text. A mark with no value is left as it is.
 */
export function fill(text, values = {}, lang = DEFAULT_LANG) {
  if (!text.includes('{')) return text;
  return text.replace(/\{(\w+)\}/g, (mark, name) => {
    const value = values[name];
    if (value === undefined || value === null) return mark;
    return typeof value === 'number' ? numberText(value, lang) : String(value);
  });
}

/** The most of a value a message quotes: a person's text can be any length. */
const MAX_QUOTED = 40;

/**
 * The characters that reorder or break the text around them (bidirectional marks, embeddings,
 * overrides and isolates; line and paragraph separators), as the core's `reorders_text` lists them.
 */
const REORDERS_TEXT = /[\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * `text` as a message quotes it: at most `max` characters, then "…" when it is longer; a character
 * that would reorder the message around it (U+202E) written as its code, `\u{202e}`, as the core
 * quotes it.
 */
export function cut(text, max = MAX_QUOTED) {
  const chars = [...String(text)];
  const shown = chars.length > max ? `${chars.slice(0, max).join('')}…` : String(text);
  return shown.replace(REORDERS_TEXT, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
}

/** The CLDR plural categories: the only keys a plural entry may have, `other` always among them. */
export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'];

/**
 * Whether a table's value is a plural entry, `{ "one": "{count} line", "other": "{count} lines" }`:
 * an object with a CLDR category among its keys. The category names are reserved: a nested table
 * never uses them as keys (scripts/locales.mjs checks every entry's categories and its `other`).
 */
export function isPlural(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    && Object.keys(value).some((key) => PLURAL_CATEGORIES.includes(key));
}

/**
 * The text of plural entry `forms` for `count` in `lang`: the form of the category that
 * Intl.PluralRules picks for the number as the texts write it (so 1.0004, shown as 1, is "one"),
 * or `other` when the entry has no form of that category (English needs no `many`, and Portuguese
 * picks "many" for 1,000,000). Undefined when `count` is not a finite number: no form is guessed.
 * Mind the languages' rules: Portuguese puts 1.5 in "one" with 1, English only 1; 0 is "other" in
 * both (CLDR's Portuguese 0 is "one", which Brazilian usage is not: see `pluralCategory`).
 */
export function pluralForm(forms, count, lang = DEFAULT_LANG) {
  if (typeof count !== 'number' || !Number.isFinite(count)) return undefined;
  return forms[pluralCategory(count, lang)] ?? forms.other;
}

/** Languages whose speakers put zero in the plural though CLDR puts it in "one": "0 admitidas". */
const ZERO_IS_OTHER = ['pt-BR'];

/**
 * Intl.PluralRules' category for `count` as the texts write it, except where usage differs: CLDR's
 * Portuguese rule puts 0 with 1 ("one"), but Brazilian usage is "0 admitidas" (or "nenhuma"), so
 * a count written as 0 there takes "other".
 */
function pluralCategory(count, lang) {
  const shown = numberText(Math.abs(count), 'en');
  if (shown === '0' && ZERO_IS_OTHER.includes(lang)) return 'other';
  return intl(Intl.PluralRules, lang, NUMBER_OPTIONS).select(count);
}

/**
 * A translator for one product's `tables` ({ 'pt-BR': {…}, en: {…} }) in `lang`:
 * `t('quiz.score', { correct: 1 })` (dotted keys reach into nested tables). A key with no text
 * shows as ⟦key⟧, which the tests look for, instead of breaking the component.
 * A plural entry takes its form from the value named `count`, which must be a number:
 * `t('malformed', { count: 1 })` gives "1 line could not be read:". Without a number in `count`
 * (missing, a string such as t.number's, NaN) it shows as ⟦key⟧ too, rather than pick a form.
 * `t.raw(key)` is the value itself (lists and plural entries too), `t.number(value, digits)`
 * writes a number the language's way (`digits`: at most that many decimals, or `numberText`'s options), `t.percent(share, digits)` a share (0.82) as a percentage
 * the language's way (82% in both, 49,8% in Portuguese), and `t.lang` is the language.
 */
export function translator(tables, lang) {
  const table = tables[pickLang(lang)];
  const raw = (key) => key.split('.').reduce((node, part) => (node === null || node === undefined ? undefined : node[part]), table);
  const t = (key, values) => {
    const entry = raw(key);
    const text = isPlural(entry) ? pluralForm(entry, values?.count, t.lang) : entry;
    return typeof text === 'string' ? fill(text, values, t.lang) : `⟦${key}⟧`;
  };
  t.raw = raw;
  t.number = (value, digits = 3) => numberText(value, t.lang, typeof digits === 'number' ? { digits } : digits);
  t.percent = (share, digits = 1) => intl(Intl.NumberFormat, t.lang, { style: 'percent', maximumFractionDigits: digits }).format(share);
  t.lang = pickLang(lang);
  return t;
}
