// The lesson page's run-time words (locales/<lang>/ui.json) in the page's language. A missing key
// shows as ⟦key⟧ so tests can catch it.
import tables from '../i18n/locales/ui.js';
import { langOf, translator } from '../i18n/translate.js';

/** The page's language: 'pt-BR' or 'en', from <html lang>. */
export const pageLang = () => langOf(document.documentElement);

let translate = null;
/** The string `key`, with each `{name}` replaced by `values[name]` (the page is read on first use). */
export function t(key, values) {
  translate ??= translator(tables, pageLang());
  return translate(key, values);
}

/** A number as the page's language writes it (7,4 in Portuguese), at most 3 decimals. */
export function formatNumber(value) {
  return new Intl.NumberFormat(pageLang(), { maximumFractionDigits: 3, useGrouping: false }).format(value);
}
