"""Which traces Redis holds, as far as this replica has heard: a miss costs no round trip.

Asking Redis for every trace missing from a replica's own memory cost the replica
~0.3 ms of CPU and redis-server ~0.15 ms per miss on 2 cores (a round trip wakes both on
cores the workers need), nearly all of what the shared cache cost. So each replica keeps
the names of the traces in Redis: it reads them all once (SCAN) and then hears every
give on a pub/sub channel, where each replica announces the names it stored, after
storing them. A name not heard of is a miss at once; a name heard of is asked for, and
forgotten when Redis no longer has it (evicted, expired or flushed).

Until the index has read Redis's names, and whenever its subscription is lost, it
knows nothing: every miss is asked for again, as before. It keeps the newest
`capacity` names; a trace older than those is computed again rather than asked for.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger("gradtrace.server")

# Names are prefix + hex digest; the first 16 hex digits (64 bits) stand for a name here:
# ~70 bytes a name, and two traces sharing them would only cost one needless ask.
_KEPT_DIGITS = 16
_SCAN_BATCH = 1000
_FIRST_DELAY_S = 0.5


class TraceIndex:
    def __init__(self, url: str, prefix: str, channel: str, capacity: int = 250_000) -> None:
        import redis.asyncio as redis  # an optional dependency, as in shared_cache.py
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        # No retries: redis-py would reconnect a lost subscription quietly, and the gives
        # made meanwhile would go unheard; a loss must reach _follow, which reads again.
        self._redis: Any = redis.Redis.from_url(
            url, retry=Retry(NoBackoff(), 0), socket_keepalive=True
        )
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError, TimeoutError)
        self.prefix = prefix
        self.channel = channel
        self.capacity = capacity
        self.complete = False  # every name Redis holds has been read, and gives are heard
        self._digests: dict[int, None] = {}  # in the order heard: the oldest go first
        self._following: asyncio.Task[None] | None = None
        self._delay = _FIRST_DELAY_S  # before following again after a loss; doubles

    def start(self) -> None:
        self._following = asyncio.get_running_loop().create_task(self._follow())

    def __contains__(self, name: str) -> bool:
        digest = self._digest(name)
        return digest is not None and digest in self._digests

    def heard(self, names: list[bytes] | list[str]) -> None:
        for name in names:
            digest = self._digest(name)
            if digest is not None:
                self._digests[digest] = None
        if len(self._digests) > self.capacity:
            # Dropping the oldest quarter at once: a dict forgets its first entries in
            # O(1) each only this way (popping one at a time from the front is O(n)).
            kept = list(self._digests)[-(self.capacity * 3 // 4) :]
            self._digests = dict.fromkeys(kept)

    def forget(self, name: str) -> None:
        digest = self._digest(name)
        if digest is not None:
            self._digests.pop(digest, None)

    def __len__(self) -> int:
        return len(self._digests)

    def _digest(self, name: bytes | str) -> int | None:
        start = len(self.prefix)
        try:
            return int(name[start : start + _KEPT_DIGITS], 16)
        except ValueError:  # not a name of ours
            return None

    async def _follow(self) -> None:
        """Read Redis's names and hear the gives, again after every loss of Redis."""
        while True:
            try:
                await self._follow_once()
            except asyncio.CancelledError:
                raise
            except self._errors as error:
                log.warning("shared cache index: %s; reading again in %.1f s", error, self._delay)
            await asyncio.sleep(self._delay)
            self._delay = min(self._delay * 2, 10.0)

    async def _follow_once(self) -> None:
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        try:
            # Subscribed first: a give made during the scan is heard after it.
            await pubsub.subscribe(self.channel)
            names: list[bytes] = []
            async for name in self._redis.scan_iter(match=self.prefix + "*", count=_SCAN_BATCH):
                names.append(name)
                if len(names) >= _SCAN_BATCH:
                    self.heard(names)
                    names = []
            self.heard(names)
            self.complete = True
            self._delay = _FIRST_DELAY_S
            async for message in pubsub.listen():
                if message.get("type") == "message":
                    self.heard(message["data"].split())
        finally:
            self.complete = False
            await pubsub.aclose()

    async def close(self) -> None:
        if self._following is not None:
            self._following.cancel()
            await asyncio.gather(self._following, return_exceptions=True)
        await self._redis.aclose()
