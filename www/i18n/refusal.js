// A refused value in the page's language: the wasm modules throw an Error whose `message` is for
// scripts (the API's field names, in English) and whose `problem` is the same refusal as data
// (`{ field, rule, min, max, given, tooLarge, tooSmall, ambiguous, type }`, see src/wasm/convert.rs).
// A page words it here, naming the label its reader sees, with the rule texts of
// locales/<lang>/errors.json. A form field's own text that holds no number it can read
// (www/i18n/typed-number.js) is worded from that text.
import { loadFailure } from '../element/load-failure.js';
import tables from './locales/errors.js';
import { cut, translator } from './translate.js';
import { fieldText, readings, unreadable } from './typed-number.js';

/**
 * `error` for the reader, in `lang`: "Limite: 0 não é permitido; use um número inteiro de 1 a
 * 10000." `label(field)` is the visible label of the API's field (undefined: the field's name);
 * `input(field)` its form field, if any, whose text is quoted when it is what could not be read
 * ("1,000", "dez"). An error without a `problem` (not a refused value) gives its own message.
 */
export function refusal(error, lang, label = () => undefined, input = () => undefined) {
  const problem = error?.problem;
  if (!problem) return String(error?.message ?? error);
  const t = translator(tables, lang);
  // Bounds as a form takes them back (a seed's 4294967295; a Portuguese 18,181 is 18,1810).
  const number = (value) => fieldText(value, t.lang);
  const rule = t(`rules.${problem.rule}`, {
    min: problem.min === undefined ? undefined : number(problem.min),
    max: problem.max === undefined ? undefined : number(problem.max),
  });
  const field = label(problem.field) ?? problem.field;
  const { given } = problem;
  const typed = input(problem.field)?.value?.trim();
  const why = typed && (given === undefined || Number.isNaN(given)) ? unreadable(typed, t.lang) : undefined;
  // A form's own text: its readings as that form reads numbers (in Portuguese 1.000 is refused too).
  if (why === 'ambiguous' || why === 'ambiguousPoint') {
    return t(why === 'ambiguous' ? 'ambiguousTyped' : why, { field, given: typed, ...readings(typed, t.lang) });
  }
  if (why) return t(why, { field, given: cut(typed), rule });
  if (typeof given === 'number') return t('refused', { field, given: number(given), rule });
  if (problem.ambiguous) {
    // "1,000": the two readings as src/limiter/error.rs's `Given::readings` writes them.
    return t('ambiguous', { field, given, ...readings(given) });
  }
  if (problem.type) return t('wrongType', { field, given: problem.type, rule });
  if (typeof given === 'string' && given.trim() !== '') return t(problem.tooLarge ? 'tooLarge' : problem.tooSmall ? 'tooSmall' : 'notNumber', { field, given: cut(given.trim()), rule });
  return t('empty', { field, rule });
}

/**
 * Why a part of the lesson did not load, for its "… did not load: {message}": a module that did
 * not download (a dropped connection, a file a new release replaced), a browser without
 * WebAssembly, WebAssembly a page's policy refuses, or a module that arrived damaged, in the reader's words, with the way out; anything
 * else by its own message.
 */
export function notLoaded(error, lang) {
  const key = { network: 'notDownloaded', missing: 'notDownloaded', status: 'notDownloaded', off: 'wasmOff', policy: 'wasmPolicy', corrupt: 'wasmCorrupt' }[loadFailure(error)?.kind];
  return key ? translator(tables, lang)(key) : String(error?.message ?? error);
}
