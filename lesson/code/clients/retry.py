"""{{comments.retry_intro}}
{{comments.retry_intro_2}}
{{comments.retry_intro_3}}"""
import random
import time
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

import requests


def wait_after(k, retry_after, base=1.0, factor=2.0, cap=30.0):
    """{{comments.retry_wait}}"""
    ceiling = min(cap, base * factor**k)
    return retry_after + random.uniform(0, ceiling)


def retry_after_seconds(value, now=None):
    """{{comments.retry_after_doc}}
    {{comments.retry_after_doc_2}}"""
    value = (value or "").strip()
    # {{comments.delay_seconds}}
    if value.isascii() and value.isdigit():
        return float(value)
    try:
        date = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return 1.0
    if date.tzinfo is None:  # {{comments.utc_no_zone}}
        date = date.replace(tzinfo=timezone.utc)
    now = now or datetime.now(timezone.utc)
    return max(0.0, (date - now).total_seconds())


def sleep(seconds):
    """{{comments.sleep_in_steps}}"""
    while seconds > 0:
        step = min(seconds, 86400.0)
        time.sleep(step)
        seconds -= step


def get_with_retries(url, max_attempts=6, **backoff):
    for k in range(max_attempts):
        response = requests.get(url, timeout=10)
        if response.status_code != 429:
            return response  # {{comments.other_status}}
        if k + 1 == max_attempts:
            break
        retry_after = retry_after_seconds(response.headers.get("Retry-After"))
        sleep(wait_after(k, retry_after, **backoff))
    raise RuntimeError(f"gave up after {max_attempts} attempts: still 429")
