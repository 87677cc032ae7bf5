// A widget's wasm whose download the network broke (a train's tunnel, a phone between cells) is
// fetched again rather than given up: when the connection comes back (`online`), or after a wait
// that doubles from 2 s up to 30 s, since a phone does not always notice a lost connection. The
// widget keeps its build-time markup meanwhile, so clicks go on queuing (early.js) and are decided
// at their own times once the module arrives. While the browser says it is online, a download
// that fails a third time is not a tunnel (an ad blocker, a filter): the caller says it, as it
// says a server's error or a policy's refusal at once. (A Content-Security-Policy's connect-src
// fails the download as a dropped connection does: its violation event tells them apart.)
import { loadFailure } from './load-failure.js';

const FIRST_WAIT_MS = 2000;
const LONGEST_WAIT_MS = 30000;
/** Failures in all while the browser says it is online, before one is said. */
const ONLINE_TRIES = 3;

/** `load()`'s result, tried again after each failure of the network; `onRetry()` is told each one. */
export async function loadRetrying(load, onRetry = () => {}) {
  let refused = false;
  // Only the page's policy refusing a wasm file (another request it refuses is not this one's).
  const violation = (event) => {
    if (event.disposition === 'enforce' && /^(connect|default)-src/.test(event.effectiveDirective)
      && /\.wasm(?:[?#]|$)/.test(event.blockedURI)) refused = true;
  };
  document.addEventListener('securitypolicyviolation', violation);
  try {
    return await retrying(load, onRetry, () => refused);
  } finally {
    document.removeEventListener('securitypolicyviolation', violation);
  }
}

async function retrying(load, onRetry, refused) {
  let online = 0;
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(2 * wait, LONGEST_WAIT_MS)) {
    try {
      return await load();
    } catch (error) {
      if (loadFailure(error)?.kind !== 'network') throw error;
      // The violation's event is queued beside the failed fetch: one task later it has been heard.
      await new Promise((resolve) => setTimeout(resolve));
      if (refused()) throw error;
      if (navigator.onLine) online += 1;
      if (online >= ONLINE_TRIES) throw error;
      console.warn(`bucketlab: the diagram's code did not arrive (${error?.message ?? error}); trying again`);
      onRetry();
      await new Promise((resolve) => {
        const again = () => {
          clearTimeout(timer);
          removeEventListener('online', again);
          resolve();
        };
        const timer = setTimeout(again, wait);
        addEventListener('online', again);
      });
    }
  }
}

/**
 * Says `text` on each of `roots`' widgets not yet live, where they say a queued click waits (the
 * status line of early.js): from now on, and at once where that is shown.
 */
export function sayRetrying(roots, text) {
  for (const root of roots) {
    const status = root?.querySelector('.bl-widget:not([data-live]) .bl-status');
    if (!status) continue;
    if (status.textContent === status.dataset.waiting) status.textContent = text;
    status.dataset.waiting = text;
  }
}
