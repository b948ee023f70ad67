"""Token buckets: how often one key (a room, a client) may do something."""

from __future__ import annotations

import time
from collections import OrderedDict


class Throttle:
    """`rate` actions a second per key, in bursts of up to `burst`; at most `keys` keys
    are remembered (the least recently seen are forgotten, so memory stays bounded)."""

    def __init__(self, rate: float, burst: float, keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keys = keys
        self._buckets: OrderedDict[object, tuple[float, float]] = OrderedDict()

    def allow(self, key: object) -> bool:
        now = time.monotonic()
        tokens, then = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        allowed = tokens >= 1
        self._buckets[key] = (tokens - 1 if allowed else tokens, now)
        while len(self._buckets) > self.keys:
            self._buckets.popitem(last=False)
        return allowed
