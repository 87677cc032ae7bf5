// A console caller's arguments to the lesson's handles (the lab, the clients, the floods, the
// servers), checked one way: the error names the argument, the value and what is allowed; nothing
// is coerced or clamped.

/** How `value` reads in an error: a number or null as it is, text quoted, with its type if not a number. */
function given(value) {
  if (typeof value === 'number' || value === null) return String(value);
  if (value === undefined) return 'nothing';
  return `${JSON.stringify(value) ?? String(value)} (a ${typeof value})`;
}

/**
 * Refuses `value` unless it is a finite number of seconds, and with `onAxis` one on an axis from 0
 * to `duration`. Playback players share it (the lab's lanes, the clients' histogram).
 */
export function checkSeconds(name, value, duration, onAxis = false) {
  if (typeof value === 'number' && Number.isFinite(value) && (!onAxis || (value >= 0 && value <= duration))) return;
  throw new Error(`${name} must be a finite number of seconds (the axis runs from 0 to ${duration}), got ${given(value)}`);
}

/** Refuses `value` unless it is one of `allowed` (strings): `mode must be one of local, shared, got "x" (a string)`. */
export function checkOneOf(name, value, allowed) {
  if (allowed.includes(value)) return;
  throw new Error(`${name} must be one of ${allowed.join(', ')}, got ${given(value)}`);
}

/**
 * Refuses `changes` unless it is an object whose fields are among `allowed` (a misspelled field
 * would be taken as nothing to change): `changes has an unknown field "limt"; allowed fields: …`.
 */
export function checkChanges(name, changes, allowed) {
  if (changes === null || typeof changes !== 'object' || Array.isArray(changes)) {
    throw new Error(`${name} must be an object with any of the fields ${allowed.join(', ')}, got ${given(changes)}`);
  }
  const unknown = Object.keys(changes).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw new Error(`${name} has an unknown field "${unknown}"; allowed fields: ${allowed.join(', ')}`);
}

/**
 * Refuses any argument to a call that takes none, rather than ignoring it: `burst() takes no
 * argument (each burst is 20 requests, the mount's data-burst), got 5`.
 */
export function checkNoArguments(name, args, why) {
  if (args.length === 0) return;
  throw new Error(`${name}() takes no argument${why ? ` (${why})` : ''}, got ${args.map(given).join(', ')}`);
}

/** A form's refusal (its `setup`'s message, shown beside the form) thrown to the console caller. */
export function throwRefusal(message) {
  if (message) throw new Error(message);
}
