// The lesson page's run-time words (locales/<lang>/ui.json) in the page's language. A missing key
// shows as ⟦key⟧ so tests can catch it.
import tables from '../i18n/locales/ui.js';
import { decimalMark, langOf, translator } from '../i18n/translate.js';

/** The page's language: 'pt-BR' or 'en', from <html lang>. */
export const pageLang = () => langOf(document.documentElement);

let translate = null;
/** The string `key`, with each `{name}` replaced by `values[name]` (the page is read on first use). */
export function t(key, values) {
  translate ??= translator(tables, pageLang());
  return translate(key, values);
}

/**
 * A number as the widget writes it (number.rs, `trimmed(value, 3, …)`), so it reads the same on
 * the page, in `lang`'s style (7,4): at most 3 decimals, the exact value rounded half away from
 * zero (as toFixed does); a nonzero value that would read 0 to 3 significant digits (0.000123;
 * 1.23e-7 below 0.000001); from 2^53 on, 15 significant digits in exponent form (1e+20).
 */
export function formatNumber(value, lang = pageLang()) {
  const size = Math.abs(value);
  let text;
  if (!Number.isFinite(size)) {
    text = String(value);
  } else if (size >= 2 ** 53) {
    const [mantissa, exponent] = value.toExponential(14).split('e');
    text = `${mantissa.replace(/\.?0+$/, '')}e${exponent}`;
  } else {
    // number.rs rounds the exact value, as toFixed does (0.5475 is 0.54749999…: 0.547).
    const [whole, thousandths] = size.toFixed(3).split('.');
    const decimals = thousandths.replace(/0+$/, '');
    text = whole !== '0' || decimals ? `${value < 0 ? '-' : ''}${whole}${decimals && `.${decimals}`}`
      // What the widget's wasm asks JavaScript for a nonzero value that would read 0.
      : value === 0 ? '0' : String(Number(value.toPrecision(3)));
  }
  return text.replace('.', decimalMark(lang));
}
