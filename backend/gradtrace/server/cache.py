"""Traces kept in memory, least recently used first out, bounded in bytes."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from gradtrace.sandbox import JobResult
from gradtrace.sandbox.protocol import Job

# A trace is kept under the job that made it (frozen, so hashable): program, device, seed.
CacheKey = Job

_ENTRY_OVERHEAD = 256


@dataclass(frozen=True)
class CacheStats:
    entries: int
    bytes: int
    max_bytes: int
    hits: int
    misses: int


class TraceCache:
    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[CacheKey, JobResult] = OrderedDict()
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    @staticmethod
    def _size(key: CacheKey, result: JobResult) -> int:
        return len(key.source) + len(result.body) + len(result.gzip or b"") + _ENTRY_OVERHEAD

    def get(self, key: CacheKey) -> JobResult | None:
        result = self._entries.get(key)
        if result is None:
            self.misses += 1
            return None
        self._entries.move_to_end(key)
        self.hits += 1
        return result

    def put(self, key: CacheKey, result: JobResult) -> None:
        size = self._size(key, result)
        if size > self.max_bytes:
            return
        old = self._entries.pop(key, None)
        if old is not None:
            self._bytes -= self._size(key, old)
        self._entries[key] = result
        self._bytes += size
        while self._bytes > self.max_bytes:
            evicted_key, evicted = self._entries.popitem(last=False)
            self._bytes -= self._size(evicted_key, evicted)

    def refresh(self, key: CacheKey, result: JobResult) -> None:
        """Replace the entry for `key` (a fuller copy of it), if it is still kept."""
        if key in self._entries:
            self.put(key, result)

    def stats(self) -> CacheStats:
        return CacheStats(
            entries=len(self._entries),
            bytes=self._bytes,
            max_bytes=self.max_bytes,
            hits=self.hits,
            misses=self.misses,
        )
