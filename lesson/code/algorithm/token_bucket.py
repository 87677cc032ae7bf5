import math
import sys
import threading


class TokenBucket:
    """{{comments.bucket_doc}}"""

    def __init__(self, capacity: float, refill_rate: float) -> None:
        if not (math.isfinite(capacity) and capacity > 0):
            raise ValueError(f"capacity must be a finite number greater than 0, got {capacity}")
        if not (math.isfinite(refill_rate) and refill_rate >= 0):
            raise ValueError(f"refill_rate must be a finite number of at least 0, got {refill_rate}")
        self.capacity = capacity
        self.refill_rate = refill_rate
        self.tokens = capacity  # {{comments.starts_full}}
        self.last: float | None = None  # {{comments.clock_starts}}
        self._lock = threading.Lock()

    def _refill(self, now: float) -> None:
        # {{comments.lazy}}
        if self.last is not None:
            elapsed = max(0.0, now - self.last)  # {{comments.backwards}}
            self.tokens = min(self.capacity, self.tokens + elapsed * self.refill_rate)
        self.last = now if self.last is None else max(self.last, now)

    def try_acquire(self, cost: float, now: float) -> tuple[bool, float | None]:
        """{{comments.acquire_doc}}"""
        # {{comments.checked}}
        if not (math.isfinite(cost) and cost >= 0):
            raise ValueError(f"cost must be a finite number of at least 0, got {cost}")
        if not math.isfinite(now):
            raise ValueError(f"now must be a finite number, got {now}")
        with self._lock:  # {{comments.atomic}}
            self._refill(now)
            # {{comments.slack}}
            # {{comments.slack_2}}
            token_slack = self.capacity * 1e-12
            time_slack = max(1e-9, abs(now) * 4 * sys.float_info.epsilon)
            fits = cost - self.capacity <= token_slack
            if fits and self.tokens + token_slack + self.refill_rate * time_slack >= cost:
                self.tokens -= cost  # {{comments.debit}}
                return True, 0.0
            if not fits or self.refill_rate == 0:
                return False, None  # {{comments.never}}
            # {{comments.wait}}
            # {{comments.wait_2}}
            return False, (self.last - now) + (cost - self.tokens) / self.refill_rate
