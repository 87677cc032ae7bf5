// The lanes as a link: the page's address with `#lang=en&lab=burst;size=25;every=2;limit=10;
// window=1;duration=2.5`: the traffic first, then each of its settings as `name=value`, numbers
// with a point whatever the page's language (a pasted list as `timestamps=0.2,0.4,1.5`). Reading
// a link only checks its shape: which names a traffic takes, each once, and numbers; the core then
// checks the values when the lanes run them (Comparison.restore), as it does the form's.
import { PATTERN_FIELDS } from './patterns.js';

/** The most characters a lab link's value holds, as a replay link's. */
export const MAX_LAB_CHARS = 2000;
/** The settings every traffic has; the seed only random traffic draws from. */
const COMMON = ['limit', 'window', 'duration'];
const fieldsOf = (pattern) => [...PATTERN_FIELDS[pattern], ...COMMON, ...(pattern === 'poisson' ? ['seed'] : [])];
/** A number as a link writes it: decimal digits, a point, an exponent; no hex, no spaces, no "∞". */
const NUMBER = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/** The link's value for `state` (the lanes' settings, with `timestamps` as numbers when pasted). */
export function labLinkValue(state) {
  const parts = [state.pattern];
  for (const name of fieldsOf(state.pattern)) {
    const value = state[name];
    parts.push(`${name}=${Array.isArray(value) ? value.map(String).join(',') : String(value)}`);
  }
  return parts.join(';');
}

/**
 * Reads a link's value: `{ settings }` for Comparison.restore, or `{ problem }`, a key of the lab's
 * `controls.linkError` with its values (what was given, what is allowed).
 */
export function readLabLink(text) {
  if (text.length > MAX_LAB_CHARS) return { problem: ['tooLong', { length: text.length, max: MAX_LAB_CHARS }] };
  const [pattern, ...pairs] = text.split(';');
  if (!Object.hasOwn(PATTERN_FIELDS, pattern)) {
    return { problem: ['pattern', { given: pattern, allowed: Object.keys(PATTERN_FIELDS).join(', ') }] };
  }
  const allowed = fieldsOf(pattern);
  const settings = { pattern };
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = at < 0 ? pair : pair.slice(0, at);
    const given = at < 0 ? '' : pair.slice(at + 1);
    if (!allowed.includes(name)) return { problem: ['name', { name, pattern, allowed: allowed.join(', ') }] };
    if (Object.hasOwn(settings, name)) return { problem: ['repeated', { name }] };
    const texts = name === 'timestamps' ? given.split(',') : [given];
    const bad = texts.find((t) => !NUMBER.test(t) || !Number.isFinite(Number(t)));
    if (bad !== undefined) return { problem: ['number', { name, given: bad }] };
    const numbers = texts.map(Number);
    settings[name] = name === 'timestamps' ? numbers : numbers[0];
  }
  return { settings };
}
