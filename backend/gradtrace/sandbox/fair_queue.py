"""The queue in front of a device's workers: each request's ticket, and the fair order in
which waiting jobs go to a worker (fewest at the workers first, by address then client)."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gradtrace.sandbox.protocol import Job

if TYPE_CHECKING:
    from gradtrace.sandbox.pool import JobResult

#: Who asked: (address, token). Requests without a token share their address's "" client.
Client = tuple[str, str]


@dataclass(eq=False)
class Ticket:
    """One request's job, from the queue to its answer."""

    job: Job
    future: asyncio.Future[JobResult]
    queued_at: float  # loop time
    client: Client
    gzip: bool = True  # the asker takes gzip: its worker compresses the answer
    id: int = 0
    started: float = 0.0  # perf_counter when it began on its worker
    queue_ms: float = 0.0
    stolen: bool = False  # taken back for another worker: this worker's answer is spare
    abandoned: bool = False  # taken back because no one waits for it any more

    def again(self) -> Ticket:
        """The same request, to be sent anew: to another worker, or back to the queue."""
        return Ticket(self.job, self.future, self.queued_at, self.client, self.gzip)


class FairQueue:
    """The jobs waiting for a worker. The next to go is the oldest job of the client with
    the fewest jobs at the workers, within the address with the fewest: a student's one
    request goes before the tenth of a client that already has nine at the workers, and
    among clients alike it is first come, first served. A classroom behind one NAT address
    is many clients (each browser has its token); a client that makes up tokens still
    counts against its address."""

    def __init__(self) -> None:
        self._lines: dict[Client, deque[Ticket]] = {}
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Ticket]:
        for line in self._lines.values():
            yield from line

    def append(self, ticket: Ticket, *, front: bool = False) -> None:
        """Behind the client's other jobs; `front`: a job taken back from a lost worker."""
        line = self._lines.setdefault(ticket.client, deque())
        if front:
            line.appendleft(ticket)
        else:
            line.append(ticket)
        self._size += 1

    def remove(self, ticket: Ticket) -> bool:
        line = self._lines.get(ticket.client)
        if line is None or ticket not in line:
            return False
        line.remove(ticket)
        self._size -= 1
        if not line:
            del self._lines[ticket.client]
        return True

    def take(
        self, in_service: Mapping[Client, int], allowed: Callable[[Client], bool]
    ) -> Ticket | None:
        """The next job in turn whose client `allowed` lets run now (`in_service`: jobs
        at the workers by client); jobs of requests that went away are dropped."""
        # Called for every job handed out, over every client waiting (one each, under a
        # class's load): plain dict reads, no Counter.__missing__ per client.
        per_address: dict[str, int] = {}
        for (address, _), count in in_service.items():
            per_address[address] = per_address.get(address, 0) + count
        at_address = per_address.get
        at_workers = in_service.get
        best: deque[Ticket] | None = None
        best_key: tuple[int, int, float] | None = None
        emptied: list[Client] = []
        for client, line in self._lines.items():
            while line and line[0].future.done():
                line.popleft()
                self._size -= 1
            if not line:
                emptied.append(client)
                continue
            key = (at_address(client[0], 0), at_workers(client, 0), line[0].queued_at)
            if (best_key is None or key < best_key) and allowed(client):
                best, best_key = line, key
        for client in emptied:
            del self._lines[client]
        if best is None:
            return None
        ticket = best.popleft()
        self._size -= 1
        if not best:
            del self._lines[ticket.client]
        return ticket

    def clear(self) -> None:
        self._lines.clear()
        self._size = 0
