// A client's retry loop: after a 429, wait what Retry-After says, plus a random share of an
// exponential backoff with a ceiling ("full jitter"), so clients refused together don't all come
// back together. Give up after maxAttempts.

/** The wait in seconds after the k-th refusal in a row (k = 0 for the first). */
export function waitAfter(k, retryAfter, { base = 1, factor = 2, cap = 30 } = {}) {
  const ceiling = Math.min(cap, base * factor ** k);
  return retryAfter + Math.random() * ceiling;
}

/**
 * The seconds a Retry-After value asks for: a whole number of seconds, or an HTTP date (the time
 * from `now` until then, never below 0). Absent or unreadable: 1 s.
 */
export function retryAfterSeconds(value, now = Date.now()) {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text);
  // An HTTP date starts with the day's name: "Wed, 21 Oct 2015 07:28:00 GMT".
  const date = /^[a-z]/i.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(date) ? 1 : Math.max(0, (date - now) / 1000);
}

const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

export async function fetchWithRetries(url, { maxAttempts = 6, ...backoff } = {}) {
  for (let k = 0; k < maxAttempts; k++) {
    const response = await fetch(url);
    if (response.status !== 429) return response;
    if (k + 1 === maxAttempts) break;
    const retryAfter = retryAfterSeconds(response.headers.get('Retry-After'));
    await sleep(waitAfter(k, retryAfter, backoff));
  }
  throw new Error(`gave up after ${maxAttempts} attempts: still 429`);
}
