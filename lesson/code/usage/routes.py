import functools
import math
import time

from flask import Flask, jsonify, request

from token_bucket import TokenBucket

app = Flask(__name__)
TIERS = {"default": (5, 1), "search": (30, 10), "auth_login": (5, 0.1)}
buckets: dict[tuple[str, str], TokenBucket] = {}  # {{comments.one_bucket_per_key}}


def rate_limited(tier: str = "default", key_by=lambda: request.headers.get("Authorization", request.remote_addr)):
    def wrap(view):
        @functools.wraps(view)
        def limited(*args, **kwargs):
            key = (tier, key_by())
            bucket = buckets.setdefault(key, TokenBucket(*TIERS[tier]))
            allowed, retry_after = bucket.try_acquire(1, time.monotonic())
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
