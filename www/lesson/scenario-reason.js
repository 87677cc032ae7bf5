// A refused scenario link's reason in the page's language, worded the same way on both pages: the
// core's refusal as data (the thrown Error's `problem`, see `scenario_to_js` in
// src/wasm/convert.rs: `{ scenario, action, piece, values }`, and for a refused number its
// `field`, `rule`, `min`, `max` and `given`), worded with the texts of locales/<lang>/errors.json
// (`scenario`, and `rules` through refusal.js), which the page loads only with this module. A
// refused number is named as the lesson names it (B, r, c, the scenario's end…), with what is
// allowed; the core's own sentence, with its field names, goes to the console.
import tables from '../i18n/locales/errors.js';
import { refusal } from '../i18n/refusal.js';
import { cut, translator } from '../i18n/translate.js';
import { fieldText } from '../i18n/typed-number.js';
import { pageLang } from './strings.js';

const t = translator(tables, pageLang());
// A link's times as a form takes them back, as refusal.js writes its bounds (1,2340 in Portuguese);
// its lengths as the page writes counts (2.000 caracteres, as its notice's limits are written).
const number = (value) => fieldText(value, t.lang);
const count = (value) => t.number(value);
// A character given as its code point (NaN: none), quoted as every message quotes (one that would
// reorder the sentence around it, U+202E, as its code).
const char = (code) => (Number.isNaN(code) ? '' : cut(String.fromCodePoint(code)));

// Each kind's key and placeholders, from its two values (and the action's number: the first
// action's time starts at the start, not at a previous action's).
const WORDS = {
  chars: ([n, max]) => ['chars', { n: count(n), max: count(max) }],
  actions: ([n, max]) => ['actions', { n: count(n), max: count(max) }],
  character: ([code]) => ['character', { char: char(code) }],
  order: ([from, to], action) => [action > 1 ? 'order' : 'orderFirst', { from: number(from), to: number(to) }],
  letter: ([code]) => (Number.isNaN(code) ? ['noLetter'] : ['letter', { char: char(code) }]),
  arguments: ([code, takes]) => [takes ? 'arguments' : 'noArguments', { letter: char(code), n: number(takes) }],
};

/** A refused number's field as the lesson names it: `now` is the header's end or an action's time. */
function label(problem) {
  const name = problem.field === 'now' ? (problem.action > 0 ? 'time' : 'end') : problem.field;
  const words = t.raw(`scenario.fields.${name}`);
  return typeof words === 'string' ? words : undefined;
}

/**
 * Whether `problem` is what a link cut short makes (a chat app's or a mail's line break): its last
 * action lacks its letter or numbers, or has an empty number.
 */
function cutShort(problem, text) {
  const [code, takes] = problem.values;
  const numbers = problem.piece.slice(problem.piece.search(/[a-z]/i) + 1).split(',').length;
  const short = {
    value: () => problem.given === undefined || String(problem.given).trim() === '',
    letter: () => Number.isNaN(code),
    arguments: () => numbers < takes,
  }[problem.scenario]?.();
  return Boolean(short) && problem.action > 0 && typeof text === 'string' && text.endsWith(problem.piece);
}

/** The scenario refusal `problem` of the link's `text` in the page's language; '' when it is not one. */
export function scenarioReason(problem, text) {
  const kind = problem?.scenario;
  const [key, values] = WORDS[kind]?.([...problem.values], problem.action) ?? [kind];
  if (kind !== 'value' && typeof tables.en.scenario?.[key] !== 'string') return '';
  const where = problem.action > 0 ? t('scenario.where', { n: number(problem.action), piece: problem.piece }) : '';
  // A refused number: refusal.js's sentence without its full stop (it is one item of the notice's list).
  const why = kind === 'value' ? refusal({ problem }, t.lang, () => label(problem)).replace(/\.$/, '') : t(`scenario.${key}`, values);
  const reason = [where, why].filter(Boolean).join(', ');
  return cutShort(problem, text) ? `${reason}; ${t('scenario.cutShort')}` : reason;
}
