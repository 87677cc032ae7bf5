// The Content-Security-Policy the site ships, as www/_headers sets it for every page: the build
// checks that it allows the inlined early.js, and the e2e server serves every response under it.
import { readFileSync } from 'node:fs';

/** The policy's text from www/_headers. */
export function shippedPolicy() {
  const headers = readFileSync(new URL('../www/_headers', import.meta.url), 'utf8');
  return headers.match(/Content-Security-Policy: (.*)/)[1].trim();
}
