"""A client's retry loop: after a 429, wait what Retry-After says, plus a random share of an
exponential backoff with a ceiling ("full jitter"), so clients refused together don't all come
back together. Give up after max_attempts."""
import random
import time
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

import requests


def wait_after(k, retry_after, base=1.0, factor=2.0, cap=30.0):
    """The wait after the k-th refusal in a row (k = 0 for the first)."""
    ceiling = min(cap, base * factor**k)
    return retry_after + random.uniform(0, ceiling)


def retry_after_seconds(value, now=None):
    """The seconds a Retry-After value asks for: a whole number of seconds, or an HTTP date (the
    time from now until then, never below 0). Absent or unreadable: 1 s."""
    value = (value or "").strip()
    if value.isascii() and value.isdigit():
        return float(value)
    try:
        date = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return 1.0
    if date.tzinfo is None:  # "-0000": UTC with no zone given
        date = date.replace(tzinfo=timezone.utc)
    now = now or datetime.now(timezone.utc)
    return max(0.0, (date - now).total_seconds())


def get_with_retries(url, max_attempts=6, **backoff):
    for k in range(max_attempts):
        response = requests.get(url, timeout=10)
        if response.status_code != 429:
            response.raise_for_status()
            return response
        if k + 1 == max_attempts:
            break
        retry_after = retry_after_seconds(response.headers.get("Retry-After"))
        time.sleep(wait_after(k, retry_after, **backoff))
    raise RuntimeError(f"gave up after {max_attempts} attempts: still 429")
