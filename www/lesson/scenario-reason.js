// A refused scenario link's reason in the page's language, for the Portuguese page (the English one
// shows the core's own): the core's message (`scenario action 2 "0.5q1": …`, see
// src/limiter/scenario.rs) is read for where the fault is and, for the common faults, what it is.
// Only its words are matched, never its rules re-checked; a message not matched here gives only
// where (or nothing), and the notice's expected text still says what a link may hold.
// Its words are in locales/<lang>/errors.json (`scenario`), which the page loads only with it.
import tables from '../i18n/locales/errors.js';
import { translator } from '../i18n/translate.js';
import { pageLang } from './strings.js';

const t = translator(tables, pageLang());

const WHY = [
  [/^it must start with the version 1_$/, 'scenario.version'],
  [/^it must start with 1_B_r_tokens_end$/, 'scenario.header'],
  [/^the character "(?<char>.)" is not allowed/u, 'scenario.character'],
  [/^the text is (?<n>\d+) characters long; at most (?<max>\d+)$/, 'scenario.chars'],
  [/^it has (?<n>\d+) actions; at most (?<max>\d+)/, 'scenario.actions'],
  [/^its time must be from the previous action's \((?<from>.*)\) to the end \((?<to>.*)\)$/, 'scenario.order'],
  [/^(?<field>\w+) must be .*, got (?<given>.*)$/, 'scenario.value'],
  [/^(unknown action|no action letter)/, 'scenario.letter'],
  [/^action ".*" takes/, 'scenario.arguments'],
];

/** The core's message about a refused scenario, in the page's language; '' when not recognised. */
export function scenarioReason(message) {
  const [, action, piece, reason] = /^scenario(?: action (\d+))?(?: "(.*)")?: (.*)$/s.exec(message) ?? [];
  if (reason === undefined) return '';
  const found = WHY.map(([pattern, key]) => [pattern.exec(reason), key]).find(([match]) => match);
  const where = action ? t('scenario.where', { n: action, piece }) : '';
  return [where, found && t(found[1], found[0].groups)].filter(Boolean).join(', ');
}
