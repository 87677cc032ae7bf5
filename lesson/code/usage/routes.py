import functools
import math
import threading
import time

from flask import Flask, jsonify, request

from token_bucket import TokenBucket

app = Flask(__name__)
TIERS = {"default": (5, 1), "search": (30, 10), "auth_login": (5, 0.1)}
buckets: dict[tuple[str, str], TokenBucket] = {}  # {{comments.one_bucket_per_key}}
# {{comments.threads_lock}}
lock = threading.Lock()
last_sweep = time.monotonic()


def acquire(tier: str, key: str, now: float) -> tuple[bool, float | None]:
    global last_sweep
    with lock:
        if now - last_sweep >= 60:
            # {{comments.sweep}}
            for idle in [k for k, b in buckets.items() if b.refill_rate * (now - b.last) >= b.capacity]:
                del buckets[idle]
            last_sweep = now
        bucket = buckets.get((tier, key))
        if bucket is None:
            bucket = buckets[(tier, key)] = TokenBucket(*TIERS[tier])
        return bucket.try_acquire(1, now)


def by_user_or_ip() -> str:
    # {{comments.verified_key}}
    user_id = verify_token(request.headers.get("Authorization"))  # {{comments.verify_token}}
    # {{comments.token_or_ip}}
    return f"user:{user_id}" if user_id else f"ip:{request.remote_addr}"


def rate_limited(tier: str = "default", key_by=by_user_or_ip):
    def wrap(view):
        @functools.wraps(view)
        def limited(*args, **kwargs):
            allowed, retry_after = acquire(tier, key_by(), time.monotonic())
            if allowed:
                return view(*args, **kwargs)
            # {{comments.deny_response}}
            response = jsonify(error="rate_limited")
            response.status_code = 429
            if retry_after is not None:
                response.headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
            response.headers["Cache-Control"] = "no-store"
            return response
        return limited
    return wrap


@app.get("/api/search")
@rate_limited("search")
def search():
    return jsonify(results=run_search(request.args["q"]))


@app.post("/api/login")
@rate_limited("auth_login", key_by=lambda: request.remote_addr)  # {{comments.login_by_ip}}
def login():
    return check_password(request.form)
