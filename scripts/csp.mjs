// The Content-Security-Policy the site ships, as www/_headers sets it for every page: the build
// checks that it allows the inlined early.js, the e2e server serves every response under it, and
// the SCORM packages carry it in their pages (an LMS serves them with its own headers).
import { readFileSync } from 'node:fs';

/** The policy's text from a `_headers` file (default www/_headers; dist/_headers adds an LRS). */
export function shippedPolicy(headers = new URL('../www/_headers', import.meta.url)) {
  const policy = readFileSync(headers, 'utf8').match(/Content-Security-Policy: (.*)/)?.[1].trim();
  if (!policy) throw new Error(`${headers} has no Content-Security-Policy line`);
  return policy;
}

/** Directives a policy in a <meta> element cannot hold: the browser ignores them there. */
const HEADER_ONLY = ['frame-ancestors', 'report-uri', 'report-to', 'sandbox'];

/**
 * `html` (a page) with `policy` as a <meta http-equiv> right after its <meta charset>, before
 * anything the policy governs. Throws for a page without that tag, or a policy that needs headers.
 */
export function withMetaPolicy(html, policy) {
  const unusable = policy.split(';').map((directive) => directive.trim().split(/\s+/)[0]).filter((name) => HEADER_ONLY.includes(name));
  if (unusable.length > 0) throw new Error(`the policy's ${unusable.join(', ')} cannot be given in a page's <meta>: ${policy}`);
  const charset = /<meta charset="utf-8">/i;
  if (!charset.test(html)) throw new Error('a page without <meta charset="utf-8"> to put the policy after');
  const escaped = policy.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return html.replace(charset, (tag) => `${tag}\n  <meta http-equiv="Content-Security-Policy" content="${escaped}">`);
}

/** `policy` (a Content-Security-Policy's text) that also lets the page connect to `origins`. */
export function allowConnect(policy, origins) {
  if (origins.length === 0) return policy;
  const sources = origins.join(' ');
  if (/(^|;)\s*connect-src\b/.test(policy)) return policy.replace(/((?:^|;)\s*connect-src)\b/, `$1 ${sources}`);
  return `${policy.replace(/;\s*$/, '')}; connect-src 'self' ${sources}`;
}
