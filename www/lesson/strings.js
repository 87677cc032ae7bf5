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

/** From 2^53 on, where doubles stop holding every integer, the widget writes exponent forms. */
const EXACT_WHOLE = 2 ** 53;

/**
 * A number as the widget writes it (src/limiter/number.rs, `trimmed(value, 3, …)`), in `lang`'s
 * style (7,4 in Portuguese), so that a value reads the same on the page and in the diagram: at most
 * 3 decimals, rounded half away from zero, trailing zeros dropped; a nonzero value that would read
 * as 0 to 3 significant digits (0.000123), in exponent form below 0.000001 (1.23e-7); from 2^53 on,
 * in exponent form to 15 significant digits (1e+20).
 */
export function formatNumber(value, lang = pageLang()) {
  const text = widgetNumber(value);
  const point = new Intl.NumberFormat(lang).formatToParts(0.5).find((part) => part.type === 'decimal').value;
  return text.replace('.', point);
}

/** `value` written with number.rs's rule, with a decimal point (the same double arithmetic). */
function widgetNumber(value) {
  const size = Math.abs(value);
  if (!Number.isFinite(size)) return String(value);
  if (size >= EXACT_WHOLE) {
    const [mantissa, exponent] = value.toExponential(14).split('e');
    return `${mantissa.replace(/\.?0+$/, '')}e${exponent}`;
  }
  // The whole part and the thousandths apart, so that the whole part's digits stay exact.
  let whole = Math.trunc(size);
  let thousandths = Math.round((size - whole) * 1000);
  if (thousandths === 1000) {
    whole += 1;
    thousandths = 0;
  }
  if (whole === 0 && thousandths === 0) {
    // What the widget's wasm asks JavaScript for a nonzero value that would read as 0.
    return value === 0 ? '0' : String(Number(value.toPrecision(3)));
  }
  const decimals = String(thousandths).padStart(3, '0').replace(/0+$/, '');
  return `${value < 0 ? '-' : ''}${whole}${decimals && `.${decimals}`}`;
}
