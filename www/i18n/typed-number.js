// Numbers as a reader types them into the page's forms and links, one way for all of them: a
// plain decimal, with a point or, in either language, a decimal comma (2,5). A comma that could
// just as well group thousands (1,000) is read as neither, as the core refuses it too
// (src/limiter/error.rs `thousands_like`); so is, in a Portuguese form, a point that could (1.000:
// the page writes a thousand that way there). Links are read alike in both languages (the page
// writes them with a decimal point), so a link's 1.000 is 1. The forms use text fields with a decimal keypad
// (`inputmode="decimal"`) rather than number fields, whose reading depends on the browser's own
// language: an English browser turns a typed 2,5 into 25.

import { decimalMark, langOf } from './translate.js';

/** Whether the comma in `text` could group thousands as well as mark decimals (1,000; -12,500). */
export const thousandsLike = (text) => /^\s*[-+]?[1-9]\d{0,2},\d{3}\s*$/.test(text);

/**
 * Whether the point in `text` could group thousands as well as mark decimals for a reader of
 * `lang`: in Portuguese, where 1.000 is a thousand (1.000; -12.500); never in English.
 */
const pointThousandsLike = (text, lang) => lang === 'pt-BR' && /^\s*[-+]?[1-9]\d{0,2}\.\d{3}\s*$/.test(text);

/**
 * `text` as a number (2.5, 2,5, 1e3, .5), typed by a reader of `lang` (none: a link's text); NaN
 * for anything else, 1,000 included, and 1.000 from a reader of Portuguese.
 */
export function typedNumber(text, lang) {
  if (thousandsLike(text) || pointThousandsLike(text, lang)) return NaN;
  const plain = text.includes(',') && !text.includes('.') ? text.replace(',', '.') : text;
  return /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(plain) ? Number(plain) : NaN;
}

/**
 * The two numbers 1,000 (or 1.000) could mean, as they would be written: `{ whole: '1000', point:
 * '1.000', decimal }`, `decimal` being the decimal reading as a reader of `lang` could type it
 * without being refused again: 1.000 in English; in Portuguese, where both 1,000 and 1.000 are
 * refused, without its trailing zeros (1; 2,5), or with one more when it needs all three
 * (999,9990).
 */
export const readings = (text, lang) => {
  const typed = text.trim();
  const point = typed.replace(',', '.');
  let decimal = point;
  if (lang === 'pt-BR') {
    decimal = String(Number(point)).replace('.', ',');
    if (thousandsLike(decimal)) decimal += '0';
  }
  return { whole: typed.replace(/[.,]/, ''), point, decimal };
};

/**
 * What keeps `text`, typed by a reader of `lang` (none: a link's text), from being read as the
 * number it means: 'ambiguous' (1,000), 'ambiguousPoint' (1.000 in Portuguese), 'notNumber'
 * (dez), 'tooLarge' (1e400, beyond a double) or 'tooSmall' (1e-400, which would read as 0); else
 * undefined.
 */
export function unreadable(text, lang) {
  if (thousandsLike(text)) return 'ambiguous';
  if (pointThousandsLike(text, lang)) return 'ambiguousPoint';
  const number = typedNumber(text, lang);
  if (Number.isNaN(number)) return 'notNumber';
  if (!Number.isFinite(number)) return 'tooLarge';
  return number === 0 && /[1-9]/.test(text.split(/e/i)[0]) ? 'tooSmall' : undefined;
}

/**
 * A form field's number, read in the language the field is in: `undefined` when it is empty, NaN
 * when its text can't be read as the number it means (`unreadable`), which the core then refuses
 * and `refusal` words from the text.
 */
export function fieldNumber(input) {
  if (input.value.trim() === '') return undefined;
  const lang = langOf(input);
  return unreadable(input.value, lang) ? NaN : typedNumber(input.value, lang);
}

/**
 * `value` as a form field shows it in `lang`, every digit kept (0.5 is 0,5 in Portuguese), and as
 * a reader can type it back: a Portuguese 1,234, which could group thousands and so is refused
 * when read, is written 1,2340. Bounds and values a message quotes are written this way too.
 */
export function fieldText(value, lang) {
  const text = String(value).replace('.', decimalMark(lang));
  return thousandsLike(text) ? `${text}0` : text;
}

/** The attributes of a form's number field: a text field with a decimal keypad. */
export const NUMBER_FIELD = { type: 'text', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false' };
