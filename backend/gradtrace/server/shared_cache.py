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
from typing import Any

from gradtrace.sandbox import JobResult
from gradtrace.server.cache import CacheKey
from gradtrace.server.trace_index import TraceIndex
from gradtrace.version import __version__

log = logging.getLogger("gradtrace.server")

_PREFIX = "gradtrace:trace:"
# Where each give announces the names it stored (the names already tell versions apart).
_CHANNEL = "gradtrace:traces-given"


class SharedTraceCache:
    """The replicas' shared traces, asked and given in batches.

    One round trip of each kind is in flight at a time, each on a connection of its own
    (redis-py's single-connection clients: a pooled command costs the server ~40 us more
    of CPU). The first ask goes to Redis at once, as a plain GET; those that arrive while
    it is on its way go together in the next, as one MGET. redis-py spends ~50-100 us of
    the server's CPU on each command it sends and ~10 us on each key of a batch: a lone
    miss pays for one command and no batching machinery, and under load many misses
    share one.

    No one waits for a give, so gives also go at most once every `give_every_s`: a lone
    one at once, but under load those of the last few misses together in one pipeline.
    Each round trip wakes redis-server and then this server on cores that the workers
    need: on 2 cores, a SET per miss cost the server ~0.6 ms of CPU per miss where the
    commands themselves cost ~0.1 ms. A give ends by announcing its names on a channel:
    every replica's index (trace_index.py) hears them, and spares its asks for traces
    that no replica has given. A give reaches the other replicas within `give_every_s`
    and a round trip. Every replica hears every announcement, so gives go at most ten
    times a second: with two replicas of one worker each, cache misses at 32 connections
    cost the servers 0.29 ms more CPU each than without Redis with gives every 25 ms,
    0.15 ms with gives every 100 ms (req/s 0.91 and 0.96 of no Redis, side by side).
    """

    def __init__(self, url: str, ttl_s: int = 24 * 3600, give_every_s: float = 0.1) -> None:
        import redis.asyncio as redis  # only with GRADTRACE_REDIS_URL: an optional dependency

        self._asking: Any = redis.Redis.from_url(url, single_connection_client=True)
        self._giving: Any = redis.Redis.from_url(url, single_connection_client=True)
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError, TimeoutError)
        self.ttl_s = ttl_s
        self.give_every_s = give_every_s
        self._last_give = -give_every_s
        self._asked: dict[str, list[asyncio.Future[bytes | None]]] = {}
        self._given: dict[str, bytes] = {}
        self._fetching: asyncio.Task[None] | None = None
        self._storing: asyncio.Task[None] | None = None
        self.index = TraceIndex(url, _PREFIX, _CHANNEL)

    def start(self) -> None:
        """Begin reading the names Redis holds (until then, every miss is asked for)."""
        self.index.start()

    @staticmethod
    def name_of(key: CacheKey) -> str:
        # The job's exact contents and the version that answers it: the same on every
        # replica of the same version, and no other.
        named = f"{__version__}\n{key.model_dump_json()}".encode()
        return _PREFIX + hashlib.blake2b(named, digest_size=20).hexdigest()

    async def get(self, key: CacheKey) -> JobResult | None:
        name = self.name_of(key)
        if self.index.complete and name not in self.index:
            return None  # no replica has given it (that this one has heard of)
        future: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
        self._asked.setdefault(name, []).append(future)
        if self._fetching is None:
            self._fetching = asyncio.get_running_loop().create_task(self._fetch())
        value = await future
        return None if value is None else _unpack(value)

    def put(self, key: CacheKey, result: JobResult) -> None:
        """Give Redis this trace, soon (no one waits for it: `close` sends what is left)."""
        self._given[self.name_of(key)] = _pack(result)
        if self._storing is None:
            self._storing = asyncio.get_running_loop().create_task(self._store())

    async def _fetch(self) -> None:
        """Answer the asks, a round trip at a time, until none are left."""
        try:
            while self._asked:
                asked, self._asked = self._asked, {}
                names = list(asked)
                values: list[bytes | None] = [None] * len(names)
                try:
                    if len(names) == 1:
                        values = [await self._asking.get(names[0])]
                    else:
                        values = await self._asking.mget(names)
                except self._errors as error:
                    log.warning("shared cache unavailable: %s", error)
                else:
                    for name, value in zip(names, values):
                        if value is None:  # evicted, expired or never given
                            self.index.forget(name)
                finally:  # also when cancelled: a miss, and the askers compute the traces
                    for name, value in zip(names, values):
                        for future in asked[name]:
                            if not future.done():
                                future.set_result(value)
        finally:
            self._fetching = None
            for waiting in self._asked.values():  # cancelled with asks still queued
                for future in waiting:
                    if not future.done():
                        future.set_result(None)

    async def _store(self) -> None:
        """Give Redis the traces, a round trip at a time, until none are left."""
        loop = asyncio.get_running_loop()
        try:
            while self._given:
                wait = self._last_give + self.give_every_s - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)  # gathering the gives of the misses meanwhile
                self._last_give = loop.time()
                given, self._given = self._given, {}
                try:
                    async with self._giving.pipeline(transaction=False) as pipe:
                        for name, value in given.items():
                            pipe.set(name, value, ex=self.ttl_s)
                        # After the SETs, in the same round trip: whoever hears a name
                        # finds its trace.
                        pipe.publish(_CHANNEL, " ".join(given))
                        await pipe.execute()
                except self._errors as error:
                    log.warning("shared cache unavailable: %s", error)
        finally:
            self._storing = None

    async def close(self) -> None:
        running = [task for task in (self._fetching, self._storing) if task is not None]
        await asyncio.gather(*running, return_exceptions=True)
        for client in (self._asking, self._giving):
            await client.aclose()
        await self.index.close()


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
