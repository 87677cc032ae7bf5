// Delivery of statements to a Learning Record Store: POST {endpoint}statements with the launch's
// credentials, in batches, in order. A failure (an error status, a timeout, no network) keeps the
// statements queued and retries with a growing delay; a statement the LRS refuses outright (a 4xx
// other than 408/429) can never succeed, so it is dropped and counted. Nothing here throws at the
// page: the first problem is written once as a console warning, and `pending` / `dropped` say
// what is still undelivered.
// A batch, once sent, is kept as it is until the LRS acknowledges it: a request that failed or
// timed out may still have been stored, and the LRS stores a batch whole or not at all, so its
// retry is the same statements (what came since waits for the next batch). Answered 409 (ids it
// already has, xAPI 1.0.3), a batch sent before is delivered, not refused.

/** Statuses worth retrying: the LRS may accept the same statements later. */
const RETRY = (status) => status === 408 || status === 429 || status >= 500;

/**
 * The most the page sends with `keepalive` as it goes away: browsers refuse a keepalive request
 * whose body, with the others still in flight, passes 64 KiB; this leaves room for the JSON's
 * brackets and for other keepalive requests of the page.
 */
const KEEPALIVE_BYTES = 60 * 1024;

export class LrsQueue {
  /** The batches not yet acknowledged, oldest first: `{ statements, sent }`, only the last one unsent. */
  #batches = [];
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
    return this.#batches.reduce((n, batch) => n + batch.statements.length, 0);
  }

  /** Statements given up: refused by the LRS, or still failing after `maxAttempts`. */
  get dropped() {
    return this.#dropped;
  }

  /** Queues `statement` and sends as soon as nothing else is in flight. */
  send(statement) {
    const last = this.#batches.at(-1);
    if (last && !last.sent) last.statements.push(statement);
    else this.#batches.push({ statements: [statement], sent: false });
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

  /**
   * The last chance when the page goes away: every batch not yet acknowledged, the one in flight
   * too, each as its own request with `keepalive`, unawaited. Apart, because a batch sent before
   * may be answered 409 (the LRS has it), which would refuse the new statements with it. Only the
   * oldest batches that fit in KEEPALIVE_BYTES go (a lesson's few statements take a few KiB).
   */
  flushOnExit() {
    if (this.#blocked) return;
    let bytes = 0;
    for (const batch of this.#batches) {
      const body = JSON.stringify(batch.statements);
      bytes += new TextEncoder().encode(body).length;
      if (bytes > KEEPALIVE_BYTES) break;
      batch.sent = true;
      fetch(this.url, { method: 'POST', keepalive: true, headers: this.#headers(), body }).catch(() => {});
    }
  }

  #headers() {
    const headers = { 'Content-Type': 'application/json', 'X-Experience-API-Version': '1.0.3' };
    if (this.auth) headers.Authorization = this.auth;
    return headers;
  }

  async #flush() {
    if (this.#sending || !this.#batches.length) return;
    this.#sending = true;
    const batch = this.#batches[0];
    const resent = batch.sent;
    batch.sent = true;
    let problem = null;
    let retry = true;
    let unreached = false;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.timeout);
    try {
      const response = await fetch(this.url, { method: 'POST', headers: this.#headers(), body: JSON.stringify(batch.statements), signal: abort.signal });
      if (!response.ok && !(resent && response.status === 409)) {
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
      this.#batches.shift();
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
      this.#batches.shift();
      this.#dropped += batch.statements.length;
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
