// Delivery of statements to a Learning Record Store: POST {endpoint}statements with the launch's
// credentials, in batches, in order. A failure (an error status, a timeout, no network) keeps the
// statements queued and retries with a growing delay; a statement the LRS refuses outright (a 4xx
// other than 408/429) can never succeed, so it is dropped and counted. Nothing here throws at the
// page: the first problem is written once as a console warning, and `pending` / `dropped` say
// what is still undelivered.

/** Statuses worth retrying: the LRS may accept the same statements later. */
const RETRY = (status) => status === 408 || status === 429 || status >= 500;

export class LrsQueue {
  #queue = [];
  #dropped = 0;
  #sending = false;
  #timer = null;
  #failures = 0;
  #warned = false;
  #blocked = false;

  /**
   * `endpoint`: the LRS's base IRI (…/xAPI/); `auth`: the Authorization header's value;
   * `timeout` (ms) per request; `retryDelay` (ms) before the first retry, doubled each time up to
   * `maxDelay`; `maxAttempts` before a batch is given up and counted as dropped; `warn`: where the
   * one warning goes.
   */
  constructor({ endpoint, auth, timeout = 10_000, retryDelay = 1_000, maxDelay = 30_000, maxAttempts = 8, warn = console.warn }) {
    this.url = new URL('statements', endpoint.endsWith('/') ? endpoint : `${endpoint}/`).href;
    Object.assign(this, { auth, timeout, retryDelay, maxDelay, maxAttempts, warn });
  }

  /** Statements waiting to be delivered (queued or in flight). */
  get pending() {
    return this.#queue.length;
  }

  /** Statements given up: refused by the LRS, or still failing after `maxAttempts`. */
  get dropped() {
    return this.#dropped;
  }

  /** Queues `statement` and sends as soon as nothing else is in flight. */
  send(statement) {
    this.#queue.push(statement);
    if (!this.#timer && !this.#blocked) this.#flush();
  }

  /**
   * The page's policy refuses the LRS (its caller has said so, with the fix): no request can
   * reach it while this page lives, so none is tried again, and the statements stay pending.
   */
  block() {
    this.#blocked = true;
    clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** The last chance when the page goes away: what is queued, with `keepalive`, unawaited. */
  flushOnExit() {
    if (!this.#queue.length || this.#sending || this.#blocked) return;
    fetch(this.url, { method: 'POST', keepalive: true, headers: this.#headers(), body: JSON.stringify(this.#queue) }).catch(() => {});
  }

  #headers() {
    const headers = { 'Content-Type': 'application/json', 'X-Experience-API-Version': '1.0.3' };
    if (this.auth) headers.Authorization = this.auth;
    return headers;
  }

  async #flush() {
    if (this.#sending || !this.#queue.length) return;
    this.#sending = true;
    const batch = this.#queue.slice();
    let problem = null;
    let retry = true;
    let unreached = false;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.timeout);
    try {
      const response = await fetch(this.url, { method: 'POST', headers: this.#headers(), body: JSON.stringify(batch), signal: abort.signal });
      if (!response.ok) {
        problem = `answered ${response.status} ${response.statusText}`.trim();
        retry = RETRY(response.status);
      }
    } catch (error) {
      unreached = !abort.signal.aborted;
      problem = unreached ? `could not be reached (${error.message})` : `did not answer within ${this.timeout} ms`;
    } finally {
      clearTimeout(timer);
    }
    // A policy that refused the request makes it fail like a network error; its violation event
    // comes just after the failure: one task later, `block()` has said so, and this says nothing.
    if (unreached) await new Promise((resolve) => setTimeout(resolve, 0));
    this.#sending = false;
    if (this.#blocked) return;
    if (!problem) {
      this.#queue.splice(0, batch.length);
      this.#failures = 0;
      return void this.#flush();
    }
    this.#failures += 1;
    if (!this.#warned) {
      this.#warned = true;
      this.warn(`bucketlab: the LRS at ${this.url} ${problem}; the lesson keeps working and the statements wait ` +
        `(bucketlab.xapi.pending, bucketlab.xapi.dropped)`);
    }
    if (!retry || this.#failures >= this.maxAttempts) {
      this.#queue.splice(0, batch.length);
      this.#dropped += batch.length;
      this.#failures = 0;
      return void this.#flush();
    }
    const delay = Math.min(this.retryDelay * 2 ** (this.#failures - 1), this.maxDelay);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#flush();
    }, delay);
  }
}
