"""Traces shared by replicas through Redis: one computed anywhere is a hit everywhere.

Each replica keeps its own in-memory cache in front (server/cache.py); this is asked on
a miss there, and given every cacheable trace a replica computes. Redis down is a miss,
never an error: the replica computes the trace itself. Redis should evict by LRU
(`maxmemory-policy allkeys-lru`); entries also expire after `ttl_s`.
"""

from __future__ import annotations

import hashlib
import logging
import struct
from typing import Any

from gradtrace.sandbox import JobResult
from gradtrace.server.cache import CacheKey

log = logging.getLogger("gradtrace.server")

_PREFIX = "gradtrace:trace:"


class SharedTraceCache:
    def __init__(self, url: str, ttl_s: int = 24 * 3600) -> None:
        import redis.asyncio as redis  # only with GRADTRACE_REDIS_URL: an optional dependency

        # Waits for a free connection rather than failing when many ask at once.
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=32, timeout=5)
        self._redis: Any = redis.Redis(connection_pool=pool)
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError, TimeoutError)
        self.ttl_s = ttl_s

    @staticmethod
    def _name(key: CacheKey) -> str:
        # The key's repr is its exact contents (kind, source, device, seed, iteration,
        # version): the same on every replica of the same version.
        return _PREFIX + hashlib.blake2b(repr(key).encode(), digest_size=20).hexdigest()

    async def get(self, key: CacheKey) -> JobResult | None:
        try:
            value = await self._redis.get(self._name(key))
        except self._errors as error:
            log.warning("shared cache unavailable: %s", error)
            return None
        return None if value is None else _unpack(value)

    async def put(self, key: CacheKey, result: JobResult) -> None:
        try:  # one command, one value: the cheapest round trip there is
            await self._redis.set(self._name(key), _pack(result), ex=self.ttl_s)
        except self._errors as error:
            log.warning("shared cache unavailable: %s", error)

    async def close(self) -> None:
        await self._redis.aclose()


# An entry: the etag's and the body's lengths, the etag (ASCII), the body, then the
# gzip (empty when there is none).
_HEAD = struct.Struct("<BQ")


def _pack(result: JobResult) -> bytes:
    etag = result.etag.encode()
    return _HEAD.pack(len(etag), len(result.body)) + etag + result.body + (result.gzip or b"")


def _unpack(value: bytes) -> JobResult | None:
    if len(value) < _HEAD.size:
        return None
    etag_size, body_size = _HEAD.unpack_from(value)
    start = _HEAD.size + etag_size
    if len(value) < start + body_size:
        return None  # not an entry of ours
    etag = value[_HEAD.size : start].decode("ascii", "replace")
    body = value[start : start + body_size]
    packed = value[start + body_size :] or None
    return JobResult(body, packed, etag, True, queue_ms=0.0, run_ms=0.0)
