// Numbers as a reader types them into the page's forms and links, one way for all of them: a
// plain decimal, with a point or, in either language, a decimal comma (2,5). A comma that could
// just as well group thousands (1,000) is read as neither, as the core refuses it too
// (src/limiter/error.rs `thousands_like`). The forms use text fields with a decimal keypad
// (`inputmode="decimal"`) rather than number fields, whose reading depends on the browser's own
// language: an English browser turns a typed 2,5 into 25.

/** Whether the comma in `text` could group thousands as well as mark decimals (1,000; -12,500). */
export const thousandsLike = (text) => /^\s*[-+]?[1-9]\d{0,2},\d{3}\s*$/.test(text);

/** `text` as a number (2.5, 2,5, 1e3, .5); NaN for anything else, 1,000 included. */
export function typedNumber(text) {
  if (thousandsLike(text)) return NaN;
  const plain = text.includes(',') && !text.includes('.') ? text.replace(',', '.') : text;
  return /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(plain) ? Number(plain) : NaN;
}

/** The two numbers 1,000 could mean, as they would be written: `{ whole: '1000', point: '1.000' }`. */
export const readings = (text) => ({ whole: text.trim().replace(',', ''), point: text.trim().replace(',', '.') });

/**
 * What keeps `text` from being read as the number it means: 'ambiguous' (1,000), 'notNumber'
 * (dez), 'tooLarge' (1e400, beyond a double) or 'tooSmall' (1e-400, which would read as 0); else
 * undefined.
 */
export function unreadable(text) {
  if (thousandsLike(text)) return 'ambiguous';
  const number = typedNumber(text);
  if (Number.isNaN(number)) return 'notNumber';
  if (!Number.isFinite(number)) return 'tooLarge';
  return number === 0 && /[1-9]/.test(text.split(/e/i)[0]) ? 'tooSmall' : undefined;
}

/**
 * A form field's number: `undefined` when it is empty, NaN when its text can't be read as the
 * number it means (`unreadable`), which the core then refuses and `refusal` words from the text.
 */
export function fieldNumber(input) {
  if (input.value.trim() === '') return undefined;
  return unreadable(input.value) ? NaN : typedNumber(input.value);
}

/** `value` as a form field shows it in `lang`, every digit kept: 0.5 is 0,5 in Portuguese. */
export function fieldText(value, lang) {
  return String(value).replace('.', new Intl.NumberFormat(lang).formatToParts(0.5).find((part) => part.type === 'decimal').value);
}

/** The attributes of a form's number field: a text field with a decimal keypad. */
export const NUMBER_FIELD = { type: 'text', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false' };
