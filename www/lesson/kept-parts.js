// What the reader set in the lab's comparison and in "Several servers" on the other language's
// page, handed over by its language link (main.js) and set again when each part mounts here
// (www/lesson/lab/loader.js, www/lesson/servers/loader.js). Kept only as data: each part checks
// what it takes back (Comparison.restore, servers.js's `restored`).

let kept = {};

/** Keeps `parts` ({ comparison?, servers? }) for the parts to take when they mount. */
export function keepParts(parts) {
  kept = parts && typeof parts === 'object' && !Array.isArray(parts) ? parts : {};
}

/** What was kept for the part `name`, or undefined. */
export function keptPart(name) {
  return Object.hasOwn(kept, name) ? kept[name] : undefined;
}
