// One rule for a setting's name written a little wrong, which would otherwise leave its default in
// place unseen: the element's attributes (bucket-lab.js) and mountDiagram's data-* (mount.js).

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

/**
 * The one of `known` that `name` (not itself one of them) looks like a misspelling of, or
 * undefined: the same letters but for "-" and "_" (refill_rate; refillRate, which HTML reads as
 * refillrate), or a letter off (a name of up to five letters: costs) or two (a longer one: capactiy).
 */
export function misspelledOf(name, known) {
  if (known.includes(name)) return undefined;
  const bare = (text) => text.replace(/[-_]/g, '');
  return known.find((setting) => bare(setting) === bare(name) || editDistance(name, setting) <= (setting.length > 5 ? 2 : 1));
}
