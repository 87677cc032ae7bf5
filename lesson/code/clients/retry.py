"""A client's retry loop: after a 429, wait what Retry-After says, plus a random share of an
exponential backoff with a ceiling ("full jitter"), so clients refused together don't all come
back together. Give up after max_attempts."""
import random
import time

import requests


def wait_after(k, retry_after, base=1.0, factor=2.0, cap=30.0):
    """The wait after the k-th refusal in a row (k = 0 for the first)."""
    ceiling = min(cap, base * factor**k)
    return retry_after + random.uniform(0, ceiling)


def get_with_retries(url, max_attempts=6, **backoff):
    for k in range(max_attempts):
        response = requests.get(url, timeout=10)
        if response.status_code != 429:
            response.raise_for_status()
            return response
        if k + 1 == max_attempts:
            break
        # Retry-After in whole seconds (the HTTP-date form is rare for rate limits).
        retry_after = float(response.headers.get("Retry-After", "1"))
        time.sleep(wait_after(k, retry_after, **backoff))
    raise RuntimeError(f"gave up after {max_attempts} attempts: still 429")
