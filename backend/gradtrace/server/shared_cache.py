"""Traces shared by replicas through Redis: one computed anywhere is a hit everywhere.

Each replica keeps its own in-memory cache in front (server/cache.py); this is asked on
a miss there, and given every cacheable trace a replica computes. Redis down is a miss,
never an error: the replica computes the trace itself. Redis should evict by LRU
(`maxmemory-policy allkeys-lru`); entries also expire after `ttl_s`.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import struct
from collections.abc import Callable, Coroutine
from typing import Any

from gradtrace.sandbox import JobResult
from gradtrace.server.cache import CacheKey
from gradtrace.version import __version__

log = logging.getLogger("gradtrace.server")

_PREFIX = "gradtrace:trace:"


class SharedTraceCache:
    """The replicas' shared traces, asked and given in batches.

    The asks and gives of one turn of the event loop go to Redis together, as one MGET
    and one pipeline of SETs: redis-py spends ~100 us of the server's CPU on each command
    it sends, and ~10 us on each key of a batch, and under load many requests miss at once.
    """

    def __init__(self, url: str, ttl_s: int = 24 * 3600) -> None:
        import redis.asyncio as redis  # only with GRADTRACE_REDIS_URL: an optional dependency

        # Waits for a free connection rather than failing when many ask at once.
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=32, timeout=5)
        self._pool: Any = pool
        self._redis: Any = redis.Redis(connection_pool=pool)
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError, TimeoutError)
        self.ttl_s = ttl_s
        self._asked: dict[str, list[asyncio.Future[bytes | None]]] = {}
        self._given: dict[str, bytes] = {}
        self._flushing: set[asyncio.Task[None]] = set()

    @staticmethod
    def _name(key: CacheKey) -> str:
        # The job's exact contents and the version that answers it: the same on every
        # replica of the same version, and no other.
        named = f"{__version__}\n{key.model_dump_json()}".encode()
        return _PREFIX + hashlib.blake2b(named, digest_size=20).hexdigest()

    async def get(self, key: CacheKey) -> JobResult | None:
        name = self._name(key)
        waiting = self._asked.get(name)
        if waiting is None:
            if not self._asked:
                self._flush_soon(self._fetch)
            waiting = self._asked[name] = []
        future: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
        waiting.append(future)
        value = await future
        return None if value is None else _unpack(value)

    async def put(self, key: CacheKey, result: JobResult) -> None:
        if not self._given:
            self._flush_soon(self._store)
        self._given[self._name(key)] = _pack(result)

    def _flush_soon(self, flush: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run `flush` once the event loop has run what is ready now (the same turn's asks)."""

        def start() -> None:
            task = asyncio.get_running_loop().create_task(flush())
            self._flushing.add(task)
            task.add_done_callback(self._flushing.discard)

        asyncio.get_running_loop().call_soon(start)

    async def _fetch(self) -> None:
        asked, self._asked = self._asked, {}
        names = list(asked)
        values: list[bytes | None] = [None] * len(names)
        try:  # one round trip for the batch
            values = await self._redis.mget(names)
        except self._errors as error:
            log.warning("shared cache unavailable: %s", error)
        finally:  # also when cancelled: a miss, and the askers compute the traces
            for name, value in zip(names, values):
                for future in asked[name]:
                    if not future.done():
                        future.set_result(value)

    async def _store(self) -> None:
        given, self._given = self._given, {}
        try:  # one round trip for the batch
            async with self._redis.pipeline(transaction=False) as pipe:
                for name, value in given.items():
                    pipe.set(name, value, ex=self.ttl_s)
                await pipe.execute()
        except self._errors as error:
            log.warning("shared cache unavailable: %s", error)

    async def close(self) -> None:
        await asyncio.gather(*self._flushing, return_exceptions=True)
        await self._redis.aclose()
        await self._pool.aclose()  # a pool handed to Redis() is not closed with it


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
