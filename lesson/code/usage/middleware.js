import express from 'express';
import { TokenBucket } from './token_bucket.js';

const TIERS = { default: [5, 1], search: [30, 10], auth_login: [5, 0.1] };
const buckets = new Map(); // {{comments.one_bucket_per_key}}

// {{comments.sweep}}
setInterval(() => {
  const now = performance.now() / 1000;
  for (const [key, bucket] of buckets) {
    if (bucket.refillRate * (now - bucket.last) >= bucket.capacity) buckets.delete(key);
  }
}, 60_000).unref();

// {{comments.verified_key}}
function byUserOrIp(req) {
  const userId = verifyToken(req.get('Authorization')); // {{comments.verify_token}}
  // {{comments.token_or_ip}}
  return userId ? `user:${userId}` : `ip:${req.ip}`;
}

export function rateLimited(tier = 'default', keyBy = byUserOrIp) {
  return (req, res, next) => {
    const key = `${tier}:${keyBy(req)}`;
    if (!buckets.has(key)) buckets.set(key, new TokenBucket(...TIERS[tier]));
    const { allowed, retryAfter } = buckets.get(key).tryAcquire(1, performance.now() / 1000);
    if (allowed) return next();
    // {{comments.deny_response}}
    if (retryAfter !== null) res.set('Retry-After', String(Math.max(1, Math.ceil(retryAfter))));
    res.set('Cache-Control', 'no-store');
    res.status(429).json({ error: 'rate_limited' });
  };
}

const app = express();
app.get('/api/search', rateLimited('search'), (req, res) => res.json(runSearch(req.query.q)));
// {{comments.login_by_ip}}
app.post('/api/login', rateLimited('auth_login', (req) => req.ip), checkPassword);
app.listen(8080);
