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

/**
 * A number as the page's language writes it (7,4 in Portuguese), at most 3 decimals; never 0 unless
 * it is: under 0.001, 2 significant digits (0.00042), under 0.000001 an exponent (1e-7).
 */
export function formatNumber(value, lang = pageLang()) {
  const size = Math.abs(value);
  const options = size === 0 || size >= 0.001 || !Number.isFinite(size)
    ? { maximumFractionDigits: 3 }
    : { maximumSignificantDigits: 2, ...(size < 1e-6 && { notation: 'scientific' }) };
  return new Intl.NumberFormat(lang, { ...options, useGrouping: false }).format(value).replace('E', 'e');
}
