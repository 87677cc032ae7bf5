// The page's run-time words: www/lesson/strings/<lang>.json, written by scripts/pages.mjs from the
// `ui` part of lesson/locales/<lang>.json. A missing key shows as ⟦key⟧ so tests can catch it.

/** The page's language: 'pt-BR' or 'en', from <html lang>. */
export const pageLang = () => (document.documentElement.lang.toLowerCase().startsWith('en') ? 'en' : 'pt-BR');

let table = {};

// Spelled out in full so that `make dist` finds and renames them with the rest of the site.
const TABLES = { 'pt-BR': './strings/pt-BR.json', en: './strings/en.json' };

/** Loads the table for the page's language; resolves when `t` can be used. */
export async function loadStrings() {
  const response = await fetch(new URL(TABLES[pageLang()], import.meta.url));
  if (!response.ok) throw new Error(`strings: HTTP ${response.status}`);
  table = await response.json();
}

/** The string `key`, with each `{name}` replaced by `values[name]`. */
export function t(key, values = {}) {
  const template = table[key];
  if (typeof template !== 'string') return `⟦${key}⟧`;
  return template.replace(/\{(\w+)\}/g, (mark, name) => (name in values ? String(values[name]) : mark));
}

/** A number as the page's language writes it (7,4 in Portuguese), at most 3 decimals. */
export function formatNumber(value) {
  return new Intl.NumberFormat(pageLang(), { maximumFractionDigits: 3, useGrouping: false }).format(value);
}
