// A refused scenario link's reason in the page's language: the core's refusal as data (the thrown
// Error's `problem`, see `scenario_to_js` in src/wasm/convert.rs: `{ scenario, action, piece,
// values }`, and for a refused number its `field` and `given`), worded with the texts of
// locales/<lang>/errors.json (`scenario`), which the page loads only with this module.
import tables from '../i18n/locales/errors.js';
import { translator } from '../i18n/translate.js';
import { pageLang } from './strings.js';

const t = translator(tables, pageLang());
// Numbers as the page writes them, without thousands separators (as refusal.js writes them).
const number = (value) => new Intl.NumberFormat(t.lang, { maximumFractionDigits: 20, useGrouping: false }).format(value);
// A character given as its code point.
const char = (code) => String.fromCodePoint(code);

// Each kind's placeholders, from its two values.
const VALUES = {
  chars: ([n, max]) => ({ n: number(n), max: number(max) }),
  actions: ([n, max]) => ({ n: number(n), max: number(max) }),
  character: ([code]) => ({ char: char(code) }),
  order: ([from, to]) => ({ from: number(from), to: number(to) }),
};

/** The scenario refusal `problem` in the page's language; '' when it is not one. */
export function scenarioReason(problem) {
  const kind = problem?.scenario;
  if (!tables.en.scenario?.[kind]) return '';
  const where = problem.action > 0 ? t('scenario.where', { n: number(problem.action), piece: problem.piece }) : '';
  const { given } = problem;
  const values = kind === 'value'
    ? { field: problem.field, given: typeof given === 'number' ? number(given) : `“${given ?? ''}”` }
    : VALUES[kind]?.([...problem.values]);
  return [where, t(`scenario.${kind}`, values)].filter(Boolean).join(', ');
}
