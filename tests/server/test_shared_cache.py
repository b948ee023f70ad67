"""The replicas' shared trace cache against a real `redis-server` (Debian's): asks and
gives batched per turn of the event loop, and Redis down is a miss, never an error."""

from __future__ import annotations

import asyncio
import shutil
import socket
from collections.abc import Iterator

import pytest
from bench.redis_server import redis_server

from gradtrace.sandbox import JobResult
from gradtrace.sandbox.protocol import Job
from gradtrace.server.cache import CacheKey
from gradtrace.server.shared_cache import SharedTraceCache

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
    try:
        cache.put(_key(1), _result(1))
        assert await asyncio.gather(cache.get(_key(1)), cache.get(_key(2))) == [None, None]
        assert "shared cache unavailable" in caplog.text
    finally:
        await cache.close()
