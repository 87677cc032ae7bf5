// A client's retry loop: after a 429, wait what Retry-After says, plus a random share of an
// exponential backoff with a ceiling ("full jitter"), so clients refused together don't all come
// back together. Give up after maxAttempts.

/** The wait in seconds after the k-th refusal in a row (k = 0 for the first). */
export function waitAfter(k, retryAfter, { base = 1, factor = 2, cap = 30 } = {}) {
  const ceiling = Math.min(cap, base * factor ** k);
  return retryAfter + Math.random() * ceiling;
}

const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

export async function fetchWithRetries(url, { maxAttempts = 6, ...backoff } = {}) {
  for (let k = 0; k < maxAttempts; k++) {
    const response = await fetch(url);
    if (response.status !== 429) return response;
    if (k + 1 === maxAttempts) break;
    // Retry-After in whole seconds (the HTTP-date form is rare for rate limits).
    const retryAfter = Number(response.headers.get('Retry-After') ?? 1);
    await sleep(waitAfter(k, retryAfter, backoff));
  }
  throw new Error(`gave up after ${maxAttempts} attempts: still 429`);
}
