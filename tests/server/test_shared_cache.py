"""The replicas' shared trace cache against a real `redis-server` (Debian's): asks and
gives batched per turn of the event loop, Redis down is a miss, never an error, and a
trace that no replica has given costs no round trip (the index of given names)."""

from __future__ import annotations

import asyncio
import logging
import shutil
import socket
from collections.abc import AsyncIterator, Iterator

import pytest
import redis.asyncio as redis
from bench.redis_server import redis_server

from gradtrace.sandbox import JobResult
from gradtrace.sandbox.protocol import Job
from gradtrace.server.cache import CacheKey
from gradtrace.server.shared_cache import SharedTraceCache
from gradtrace.server.trace_index import TraceIndex

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    if shutil.which("redis-server") is None:
        pytest.skip("needs Debian's redis-server (make redis-setup)")
    with redis_server() as url:
        yield url


def _key(n: int) -> CacheKey:
    return Job(source=f"x = {n}\n")


def _result(n: int) -> JobResult:
    body = b'{"n": %d}' % n + b" " * (n * 1000)
    gzip = b"packed" if n % 2 else None
    return JobResult(body, gzip, f"etag{n}", True, queue_ms=0.0, run_ms=0.0)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_many_asks_at_once_each_get_their_own_answer(redis_url: str) -> None:
    cache = SharedTraceCache(redis_url)
    cache.start()
    try:
        for n in range(0, 40, 2):  # given together: one pipeline
            cache.put(_key(n), _result(n))
        await asyncio.sleep(0.2)
        # Asked together, the same key twice among them: one MGET answers them all.
        keys = [_key(n) for n in range(40)] + [_key(4)]
        found = await asyncio.gather(*(cache.get(key) for key in keys))
        for n, result in zip([*range(40), 4], found):
            if n % 2:
                assert result is None
            else:
                assert result is not None
                expected = _result(n)
                assert (result.body, result.gzip, result.etag) == (
                    expected.body,
                    expected.gzip,
                    expected.etag,
                )
    finally:
        await cache.close()


async def test_an_ask_given_up_does_not_spoil_the_others(redis_url: str) -> None:
    cache = SharedTraceCache(redis_url)
    cache.start()
    try:
        cache.put(_key(100), _result(100))
        await asyncio.sleep(0.2)
        abandoned = asyncio.ensure_future(cache.get(_key(100)))
        kept = asyncio.ensure_future(cache.get(_key(100)))
        await asyncio.sleep(0)
        abandoned.cancel()
        result = await kept
        assert result is not None and result.etag == "etag100"
        assert abandoned.cancelled()
    finally:
        await cache.close()


async def test_redis_down_is_a_miss(caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    cache = SharedTraceCache(f"redis://127.0.0.1:{port}/0")
    cache.start()
    try:
        cache.put(_key(1), _result(1))
        assert await asyncio.gather(cache.get(_key(1)), cache.get(_key(2))) == [None, None]
        assert "shared cache unavailable" in caplog.text
    finally:
        await cache.close()


# --------------------------------------------------------------- the index of given names


async def _until(condition: object, what: str, timeout_s: float = 5.0) -> None:
    assert callable(condition)
    deadline = asyncio.get_running_loop().time() + timeout_s
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"still not {what} after {timeout_s} s")
        await asyncio.sleep(0.01)


@pytest.fixture
async def direct(redis_url: str) -> AsyncIterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    yield client
    await client.aclose()


@pytest.fixture
async def replicas(redis_url: str) -> AsyncIterator[tuple[SharedTraceCache, SharedTraceCache]]:
    """Two replicas' caches, each with its index complete."""
    pair = (SharedTraceCache(redis_url), SharedTraceCache(redis_url))
    for cache in pair:
        cache.start()
    await _until(lambda: all(cache.index.complete for cache in pair), "complete")
    yield pair
    for cache in pair:
        await cache.close()


async def _asks(direct: redis.Redis) -> int:
    """GETs and MGETs Redis has answered so far."""
    stats = await direct.info("commandstats")
    return sum(int(stats.get(f"cmdstat_{c}", {}).get("calls", 0)) for c in ("get", "mget"))


async def test_a_trace_no_replica_gave_costs_no_round_trip(
    replicas: tuple[SharedTraceCache, SharedTraceCache], direct: redis.Redis
) -> None:
    one, two = replicas
    before = await _asks(direct)
    assert await asyncio.gather(*(two.get(_key(n)) for n in range(1000, 1050))) == [None] * 50
    assert await _asks(direct) == before
    # Given by the first, heard by the second: asked for, and found.
    one.put(_key(1000), _result(1))
    await _until(lambda: SharedTraceCache.name_of(_key(1000)) in two.index, "heard")
    found = await two.get(_key(1000))
    assert found is not None and found.etag == "etag1"
    assert await _asks(direct) == before + 1


async def test_a_replica_started_later_reads_the_names_given_before(
    redis_url: str, replicas: tuple[SharedTraceCache, SharedTraceCache]
) -> None:
    one, _ = replicas
    for n in range(2000, 2010):
        one.put(_key(n), _result(n % 7))
    await _until(lambda: SharedTraceCache.name_of(_key(2009)) in one.index, "given")
    late = SharedTraceCache(redis_url)
    late.start()
    try:
        await _until(lambda: late.index.complete, "complete")
        found = await asyncio.gather(*(late.get(_key(n)) for n in range(2000, 2010)))
        assert [r.etag if r else None for r in found] == [f"etag{n % 7}" for n in range(2000, 2010)]
    finally:
        await late.close()


async def test_a_trace_gone_from_redis_is_forgotten(
    replicas: tuple[SharedTraceCache, SharedTraceCache], direct: redis.Redis
) -> None:
    one, two = replicas
    name = SharedTraceCache.name_of(_key(3000))
    one.put(_key(3000), _result(3))
    await _until(lambda: name in two.index, "heard")
    await direct.delete(name)  # as Redis's LRU eviction or the entry's expiry would
    assert await two.get(_key(3000)) is None
    assert name not in two.index
    before = await _asks(direct)
    assert await two.get(_key(3000)) is None
    assert await _asks(direct) == before


async def test_an_index_that_lost_its_subscription_asks_until_it_has_read_again(
    replicas: tuple[SharedTraceCache, SharedTraceCache],
    direct: redis.Redis,
    caplog: pytest.LogCaptureFixture,
) -> None:
    one, two = replicas
    caplog.set_level(logging.WARNING, logger="gradtrace.server")
    await direct.client_kill_filter(_type="pubsub")
    await _until(lambda: not two.index.complete, "incomplete")
    # Given while the second replica may not hear it: asked for meanwhile, and read by
    # the scan that follows the new subscription.
    one.put(_key(4000), _result(4))
    await _until(lambda: SharedTraceCache.name_of(_key(4000)) in one.index, "heard by the giver")
    found = await two.get(_key(4000))
    assert found is not None and found.etag == "etag4"
    await _until(lambda: two.index.complete, "complete again")
    assert SharedTraceCache.name_of(_key(4000)) in two.index
    assert "shared cache index:" in caplog.text


def test_the_index_keeps_the_newest_names_within_its_capacity(redis_url: str) -> None:
    index = TraceIndex(redis_url, "p:", "c", capacity=100)
    names = [f"p:{n:016x}{0:024x}" for n in range(1000)]
    index.heard(names)
    assert 75 <= len(index) <= 100
    assert names[-1] in index and names[-75] in index and names[0] not in index
    index.heard(["p:not-hex", "elsewhere"])  # not names of ours: ignored
    assert "p:not-hex" not in index
