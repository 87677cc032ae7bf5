export class TokenBucket {
  /** {{comments.bucket_doc}} */
  constructor(capacity, refillRate) {
    if (!(Number.isFinite(capacity) && capacity > 0)) {
      throw new RangeError(`capacity must be a finite number greater than 0, got ${capacity}`);
    }
    if (!(Number.isFinite(refillRate) && refillRate >= 0)) {
      throw new RangeError(`refillRate must be a finite number of at least 0, got ${refillRate}`);
    }
    this.capacity = capacity;
    this.refillRate = refillRate;
    this.tokens = capacity; // {{comments.starts_full}}
    this.last = null; // {{comments.clock_starts}}
  }

  #refill(now) {
    // {{comments.lazy}}
    if (this.last !== null) {
      const elapsed = Math.max(0, now - this.last); // {{comments.backwards}}
      this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.refillRate);
    }
    this.last = this.last === null ? now : Math.max(this.last, now);
  }

  /** {{comments.acquire_doc}} */
  tryAcquire(cost, now) {
    // {{comments.checked}}
    if (!(Number.isFinite(cost) && cost >= 0)) {
      throw new RangeError(`cost must be a finite number of at least 0, got ${cost}`);
    }
    if (!Number.isFinite(now)) throw new RangeError(`now must be a finite number, got ${now}`);
    this.#refill(now);
    // {{comments.slack}}
    // {{comments.slack_2}}
    const tokenSlack = this.capacity * 1e-12;
    const timeSlack = Math.max(1e-9, Math.abs(now) * 4 * Number.EPSILON);
    const fits = cost - this.capacity <= tokenSlack;
    if (fits && this.tokens + tokenSlack + this.refillRate * timeSlack >= cost) {
      this.tokens -= cost; // {{comments.debit}}
      return { allowed: true, retryAfter: 0 };
    }
    if (!fits || this.refillRate === 0) {
      return { allowed: false, retryAfter: null }; // {{comments.never}}
    }
    // {{comments.wait}}
    // {{comments.wait_2}}
    return { allowed: false, retryAfter: (this.last - now) + (cost - this.tokens) / this.refillRate };
  }
}
