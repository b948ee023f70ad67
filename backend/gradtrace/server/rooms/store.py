"""Where rooms live: in this process (one server), or in Redis (any number of replicas).

A room is its lecturer's token (hashed), its state as JSON, the class's answers to each
poll and how many streams follow it on each replica. Events are published on the room's
channel and reach every replica's hub (`listen`). A room lasts `idle_s` after its
lecturer's last sign of life (an update, or the lecturer's stream being open).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

Deliver = Callable[[str, str], None]  # (room code, event envelope)


@dataclass
class StoredRoom:
    token_hash: str
    state: str  # RoomState as JSON


class RoomStore(Protocol):
    async def create(self, code: str, token_hash: str, state: str) -> bool: ...
    async def load(self, code: str) -> StoredRoom | None: ...
    async def save_state(self, code: str, state: str) -> bool: ...
    async def touch(self, code: str) -> bool: ...
    async def delete(self, code: str) -> None: ...
    async def count(self) -> int: ...
    async def answer(self, code: str, poll: int, client: str, value: float, limit: int) -> bool: ...
    async def answers(self, code: str, poll: int) -> list[float]: ...
    async def set_followers(self, code: str, replica: str, count: int) -> int: ...
    async def publish(self, code: str, envelope: str) -> None: ...
    async def listen(self, deliver: Deliver) -> None: ...
    async def close(self) -> None: ...


@dataclass
class _Room:
    stored: StoredRoom
    deadline: float
    answers: dict[int, dict[str, float]] = field(default_factory=dict)
    followers: dict[str, int] = field(default_factory=dict)


class MemoryStore:
    """Rooms in this process: what one server needs."""

    def __init__(self, idle_s: float) -> None:
        self.idle_s = idle_s
        self._rooms: dict[str, _Room] = {}
        self._deliver: Deliver | None = None

    def _live(self, code: str) -> _Room | None:
        room = self._rooms.get(code)
        if room is not None and room.deadline < time.monotonic():
            del self._rooms[code]
            return None
        return room

    async def create(self, code: str, token_hash: str, state: str) -> bool:
        if self._live(code) is not None:
            return False
        deadline = time.monotonic() + self.idle_s
        self._rooms[code] = _Room(StoredRoom(token_hash, state), deadline)
        return True

    async def load(self, code: str) -> StoredRoom | None:
        room = self._live(code)
        return None if room is None else room.stored

    async def save_state(self, code: str, state: str) -> bool:
        room = self._live(code)
        if room is None:
            return False
        room.stored.state = state
        room.deadline = time.monotonic() + self.idle_s
        return True

    async def touch(self, code: str) -> bool:
        room = self._live(code)
        if room is not None:
            room.deadline = time.monotonic() + self.idle_s
        return room is not None

    async def delete(self, code: str) -> None:
        self._rooms.pop(code, None)

    async def count(self) -> int:
        for code in list(self._rooms):
            self._live(code)
        return len(self._rooms)

    async def answer(self, code: str, poll: int, client: str, value: float, limit: int) -> bool:
        room = self._live(code)
        if room is None:
            return False
        if poll not in room.answers:
            # A new question: earlier ones' answers are never read again (only the open
            # question takes answers), and a room may ask a million.
            room.answers = {poll: {}}
        answers = room.answers[poll]
        if client not in answers and len(answers) >= limit:
            return False
        answers[client] = value
        return True

    async def answers(self, code: str, poll: int) -> list[float]:
        room = self._live(code)
        return [] if room is None else sorted(room.answers.get(poll, {}).values())

    async def set_followers(self, code: str, replica: str, count: int) -> int:
        room = self._live(code)
        if room is None:
            return 0
        room.followers[replica] = count
        return sum(room.followers.values())

    async def publish(self, code: str, envelope: str) -> None:
        if self._deliver is not None:
            self._deliver(code, envelope)

    async def listen(self, deliver: Deliver) -> None:
        self._deliver = deliver
        await asyncio.Event().wait()  # delivered by publish; runs until cancelled

    async def close(self) -> None:
        self._rooms.clear()


_PREFIX = "gradtrace:room:"
_CHANNEL = "gradtrace:events:"


class RedisStore:
    """Rooms in Redis: every replica sees every room, and every room's events."""

    def __init__(self, url: str, idle_s: float) -> None:
        import redis.asyncio as redis  # only with GRADTRACE_REDIS_URL: an optional dependency

        self.idle_s = int(idle_s)
        self._redis: Any = redis.Redis.from_url(url, decode_responses=True)

    async def create(self, code: str, token_hash: str, state: str) -> bool:
        key = _PREFIX + code
        created = await self._redis.hsetnx(key, "token", token_hash)
        if not created:
            return False
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, "state", state)
            pipe.expire(key, self.idle_s)
            await pipe.execute()
        return True

    async def load(self, code: str) -> StoredRoom | None:
        fields = await self._redis.hmget(_PREFIX + code, "token", "state")
        if fields[0] is None or fields[1] is None:
            return None
        return StoredRoom(fields[0], fields[1])

    async def save_state(self, code: str, state: str) -> bool:
        key = _PREFIX + code
        if not await self._redis.exists(key):
            return False
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, "state", state)
            for suffix in ("", ":followers"):
                pipe.expire(key + suffix, self.idle_s)
            await pipe.execute()
        return True

    async def touch(self, code: str) -> bool:
        return bool(await self._redis.expire(_PREFIX + code, self.idle_s))

    async def delete(self, code: str) -> None:
        keys = [k async for k in self._redis.scan_iter(match=f"{_PREFIX}{code}*", count=100)]
        if keys:
            await self._redis.delete(*keys)

    async def count(self) -> int:
        # Room keys have no ':' after the code; polls and followers do.
        return sum(
            [
                1
                async for k in self._redis.scan_iter(match=f"{_PREFIX}*", count=500)
                if k.count(":") == 2
            ]
        )

    async def answer(self, code: str, poll: int, client: str, value: float, limit: int) -> bool:
        key = f"{_PREFIX}{code}:poll:{poll}"
        if not await self._redis.exists(_PREFIX + code):
            return False
        if not await self._redis.exists(key):
            # A new question: earlier ones' answers are never read again.
            pattern = f"{_PREFIX}{code}:poll:*"
            stale = [k async for k in self._redis.scan_iter(match=pattern, count=100) if k != key]
            if stale:
                await self._redis.delete(*stale)
        if await self._redis.hlen(key) >= limit and not await self._redis.hexists(key, client):
            return False
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, client, repr(value))
            pipe.expire(key, self.idle_s)
            await pipe.execute()
        return True

    async def answers(self, code: str, poll: int) -> list[float]:
        values = await self._redis.hvals(f"{_PREFIX}{code}:poll:{poll}")
        return sorted(float(v) for v in values)

    async def set_followers(self, code: str, replica: str, count: int) -> int:
        key = f"{_PREFIX}{code}:followers"
        async with self._redis.pipeline(transaction=True) as pipe:
            if count:
                pipe.hset(key, replica, count)
            else:
                pipe.hdel(key, replica)
            pipe.expire(key, self.idle_s)
            pipe.hvals(key)
            *_, counts = await pipe.execute()
        return sum(int(c) for c in counts)

    async def publish(self, code: str, envelope: str) -> None:
        await self._redis.publish(_CHANNEL + code, envelope)

    async def listen(self, deliver: Deliver) -> None:
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.psubscribe(_CHANNEL + "*")
        try:
            async for message in pubsub.listen():
                if message.get("type") == "pmessage":
                    deliver(message["channel"][len(_CHANNEL) :], message["data"])
        finally:
            await pubsub.aclose()

    async def close(self) -> None:
        await self._redis.aclose()
