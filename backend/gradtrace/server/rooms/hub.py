"""This replica's side of the rooms: the streams open here, and what each is sent.

An event is published once to the store's channel and delivered by every replica to its
own streams: followers get the lecturer's state (and the room's end); lecturers also get
the number following and the class's answers. A stream keeps only the newest event of
each type, so a slow reader is sent the current state, never a backlog.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from gradtrace.server.rooms.models import (
    AnswersEvent,
    ClosedEvent,
    Distribution,
    FollowersEvent,
    RoomState,
    StateEvent,
)
from gradtrace.server.rooms.store import RoomStore

log = logging.getLogger("gradtrace.rooms")

_ORDER = ("state", "followers", "answers", "closed")
_LECTURER_ONLY = frozenset({"followers", "answers"})
# How often a replica checks that its followed rooms still exist (a room that timed out
# in Redis tells no one) and tells the store that its lecturers are still there.
SWEEP_S = 10.0


@dataclass(eq=False)
class Stream:
    """One open events stream: the newest pending event of each type, as SSE data."""

    code: str
    lecturer: bool
    pending: dict[str, str] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def offer(self, kind: str, data: str) -> None:
        if kind in _LECTURER_ONLY and not self.lecturer:
            return
        self.pending[kind] = data
        self.wake.set()

    def take(self) -> list[tuple[str, str]]:
        ready = [(kind, self.pending.pop(kind)) for kind in _ORDER if kind in self.pending]
        self.wake.clear()
        return ready


def envelope(kind: str, data: str) -> str:
    return f"{kind}\n{data}"


class RoomHub:
    def __init__(self, store: RoomStore) -> None:
        self.store = store
        self.replica = secrets.token_hex(8)
        self._streams: dict[str, set[Stream]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._answer_flush: dict[str, asyncio.Task[None]] = {}

    async def start(self) -> None:
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._sweep())]

    async def stop(self) -> None:
        for task in [*self._tasks, *self._answer_flush.values()]:
            task.cancel()
        await asyncio.gather(*self._tasks, *self._answer_flush.values(), return_exceptions=True)
        await self.store.close()

    def followers_here(self, code: str) -> int:
        return sum(1 for s in self._streams.get(code, ()) if not s.lecturer)

    # ------------------------------------------------------------------ publishing

    async def publish_state(self, state: RoomState) -> None:
        await self.store.publish(
            state.code, envelope("state", StateEvent(state=state).model_dump_json())
        )

    async def publish_closed(self, code: str, reason: str) -> None:
        event = ClosedEvent(reason="idle" if reason == "idle" else "ended")
        await self.store.publish(code, envelope("closed", event.model_dump_json()))

    def answers_changed(self, code: str, poll: int) -> None:
        """Send the lecturers the distribution, at most every 0.2 s per room: a class
        answering at once costs a few reads, not one per answer."""
        if code not in self._answer_flush:
            self._answer_flush[code] = asyncio.create_task(self._flush_answers(code, poll))

    async def _flush_answers(self, code: str, poll: int) -> None:
        try:
            await asyncio.sleep(0.2)
            values = await self.store.answers(code, poll)
            answers = Distribution(poll=poll, count=len(values), values=values)
            await self.store.publish(
                code, envelope("answers", AnswersEvent(answers=answers).model_dump_json())
            )
        finally:
            self._answer_flush.pop(code, None)

    async def _count_followers(self, code: str) -> None:
        total = await self.store.set_followers(code, self.replica, self.followers_here(code))
        await self.store.publish(
            code, envelope("followers", FollowersEvent(count=total).model_dump_json())
        )

    # ------------------------------------------------------------------ streams

    @contextlib.asynccontextmanager
    async def stream(self, code: str, *, lecturer: bool) -> AsyncIterator[Stream]:
        stream = Stream(code, lecturer)
        self._streams.setdefault(code, set()).add(stream)
        try:
            if not lecturer:
                await self._count_followers(code)
            yield stream
        finally:
            streams = self._streams.get(code)
            if streams is not None:
                streams.discard(stream)
                if not streams:
                    del self._streams[code]
            if not lecturer:
                with contextlib.suppress(Exception):  # the store may be gone (shutdown)
                    await self._count_followers(code)

    def _deliver(self, code: str, message: str) -> None:
        kind, _, data = message.partition("\n")
        for stream in self._streams.get(code, ()):
            stream.offer(kind, data)

    async def _listen(self) -> None:
        delay = 0.5
        while True:
            try:
                await self.store.listen(self._deliver)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis went away: keep trying, streams stay open
                log.warning("room events: %s; listening again in %.1f s", error, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_S)
            for code, streams in list(self._streams.items()):
                try:
                    alive = (
                        await self.store.touch(code)
                        if any(s.lecturer for s in streams)
                        else await self.store.load(code) is not None
                    )
                except Exception as error:
                    log.warning("room %s: %s", code, error)
                    continue
                if not alive:
                    closed = ClosedEvent(reason="idle").model_dump_json()
                    for stream in list(streams):
                        stream.offer("closed", closed)
