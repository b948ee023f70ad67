"""The rooms' stores on their own, in this process and in a real `redis-server`: what
they keep of a room's answers."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from bench.redis_server import redis_server

from gradtrace.server.rooms.store import MemoryStore, RedisStore, RoomStore

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["memory", "redis"])
async def store(request: pytest.FixtureRequest, anyio_backend: str) -> AsyncIterator[RoomStore]:
    if request.param == "memory":
        yield MemoryStore(idle_s=60)
        return
    with redis_server() as url:
        redis_store = RedisStore(url, idle_s=60)
        try:
            yield redis_store
        finally:
            await redis_store.close()


async def test_a_new_question_drops_the_answers_to_earlier_ones(store: RoomStore) -> None:
    # Only the open question takes answers, and a lecturer may ask up to a million in
    # a room's life, each answered by as many clients as tokens are free to get: what a
    # room kept of closed questions grew without bound.
    assert await store.create("ABCDEF", "hash", "{}")
    for poll in range(1, 4):
        for client in ("a", "b"):
            assert await store.answer("ABCDEF", poll, f"{client}{poll}", float(poll), limit=10)
    assert await store.answers("ABCDEF", 3) == [3.0, 3.0]
    assert await store.answers("ABCDEF", 1) == []
    assert await store.answers("ABCDEF", 2) == []
    # A client answering the open question again replaces its answer, as before.
    assert await store.answer("ABCDEF", 3, "a3", 5.0, limit=10)
    assert await store.answers("ABCDEF", 3) == [3.0, 5.0]
