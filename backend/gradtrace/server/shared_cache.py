"""Traces shared by replicas through Redis: one computed anywhere is a hit everywhere.

Each replica keeps its own in-memory cache in front (server/cache.py); this is asked on
a miss there, and given every cacheable trace a replica computes. Redis down is a miss,
never an error: the replica computes the trace itself. Redis should evict by LRU
(`maxmemory-policy allkeys-lru`); entries also expire after `ttl_s`.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from gradtrace.sandbox import JobResult
from gradtrace.server.cache import CacheKey

log = logging.getLogger("gradtrace.server")

_PREFIX = "gradtrace:trace:"


class SharedTraceCache:
    def __init__(self, url: str, ttl_s: int = 24 * 3600) -> None:
        import redis.asyncio as redis  # only with GRADTRACE_REDIS_URL: an optional dependency

        self._redis: Any = redis.Redis.from_url(url)
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)
        self.ttl_s = ttl_s

    @staticmethod
    def _name(key: CacheKey) -> str:
        # The key's repr is its exact contents (kind, source, device, seed, iteration,
        # version): the same on every replica of the same version.
        return _PREFIX + hashlib.blake2b(repr(key).encode(), digest_size=20).hexdigest()

    async def get(self, key: CacheKey) -> JobResult | None:
        try:
            body, packed, etag = await self._redis.hmget(self._name(key), "body", "gzip", "etag")
        except self._errors as error:
            log.warning("shared cache unavailable: %s", error)
            return None
        if body is None or etag is None:
            return None
        return JobResult(body, packed or None, etag.decode(), True, queue_ms=0.0, run_ms=0.0)

    async def put(self, key: CacheKey, result: JobResult) -> None:
        mapping = {"body": result.body, "gzip": result.gzip or b"", "etag": result.etag}
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.hset(self._name(key), mapping=mapping)
                pipe.expire(self._name(key), self.ttl_s)
                await pipe.execute()
        except self._errors as error:
            log.warning("shared cache unavailable: %s", error)

    async def close(self) -> None:
        await self._redis.aclose()
