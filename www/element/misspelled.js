// A setting's name written a little wrong, which would otherwise leave its default in place unseen:
// the element's attributes (bucket-lab.js) and mountDiagram's data-* (mount.js), by one rule, which
// is closer for data-*: those are mostly the page's own (data-passed, data-lane, data-opacity).

/** How many one-letter edits (insert, delete, replace) turn `a` into `b`. */
function editDistance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

/** Whether `a` becomes `b` by one letter put in or taken out, or two neighbours swapped. */
function slip(a, b) {
  if (Math.abs(a.length - b.length) === 1) {
    const [short, long] = a.length < b.length ? [a, b] : [b, a];
    return [...long].some((_, i) => long.slice(0, i) + long.slice(i + 1) === short);
  }
  return a.length === b.length && [...a].some((_, i) => i + 1 < a.length && a[i] !== b[i]
    && a.slice(0, i) + a[i + 1] + a[i] + a.slice(i + 2) === b);
}

/**
 * The one of `known` that `name` (not itself one of them) looks like a misspelling of, or
 * undefined: the same letters but for "-" and "_" (refill_rate; refillRate, which HTML reads as
 * refillrate), or a letter off (a name of up to five letters: costs) or two (a longer one:
 * capactiy). `close`: only a letter put in, left out or swapped with its neighbour (capcity,
 * capactiy, token), never one replaced by another (data-passed is the page's, not data-paused).
 * `shortest`: a letter off counts only for a setting of that many letters or more (a shorter one
 * is matched but for its separators: `token` and `lng` are names of other software's).
 */
export function misspelledOf(name, known, { close = false, shortest = 0 } = {}) {
  if (known.includes(name)) return undefined;
  const bare = (text) => text.replace(/[-_]/g, '');
  const near = close ? (setting) => slip(name, setting) : (setting) => editDistance(name, setting) <= (setting.length > 5 ? 2 : 1);
  return known.find((setting) => bare(setting) === bare(name) || (setting.length >= shortest && near(setting)));
}
