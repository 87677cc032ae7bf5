// {{comments.retry_intro}}
// {{comments.retry_intro_2}}
// {{comments.retry_intro_3}}

/** {{comments.retry_wait}} */
export function waitAfter(k, retryAfter, { base = 1, factor = 2, cap = 30 } = {}) {
  const ceiling = Math.min(cap, base * factor ** k);
  return retryAfter + Math.random() * ceiling;
}

/**
 * {{comments.retry_after_doc}}
 * {{comments.retry_after_doc_2}}
 */
export function retryAfterSeconds(value, now = Date.now()) {
  const text = value?.trim() ?? '';
  // {{comments.delay_seconds}}
  if (/^\d+$/.test(text)) return Number(text);
  // {{comments.http_date}}
  const date = /^[a-z]/i.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(date) ? 1 : Math.max(0, (date - now) / 1000);
}

// {{comments.sleep_in_steps}}
async function sleep(seconds) {
  const longest = 2 ** 31 - 1; // {{comments.set_timeout_longest}}
  for (let left = seconds * 1000; left > 0; left -= longest) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, longest)));
  }
}

export async function fetchWithRetries(url, { maxAttempts = 6, ...backoff } = {}) {
  for (let k = 0; k < maxAttempts; k++) {
    const response = await fetch(url);
    if (response.status !== 429) return response; // {{comments.other_status}}
    if (k + 1 === maxAttempts) break;
    const retryAfter = retryAfterSeconds(response.headers.get('Retry-After'));
    await sleep(waitAfter(k, retryAfter, backoff));
  }
  throw new Error(`gave up after ${maxAttempts} attempts: still 429`);
}
