"""The queue in front of a device's workers: each request's ticket, and the fair order in
which waiting jobs go to a worker (fewest at the workers first, by address then client)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
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


def _place_by_age(line: deque[Ticket], queued_at: float) -> int:
    """Where a ticket that queued at `queued_at` goes in `line`: before the younger ones."""
    for position, waiting in enumerate(line):
        if waiting.queued_at > queued_at:
            return position
    return len(line)


class FairQueue:
    """The jobs waiting for a worker. The next to go is the oldest job of the client with
    the fewest jobs at the workers, within the address with the fewest: a student's one
    request goes before the tenth of a client that already has nine at the workers, and
    among clients alike it is first come, first served. A classroom behind one NAT address
    is many clients (each browser has its token); a client that makes up tokens still
    counts against its address.

    Only the few clients and addresses with jobs at the workers have counts above zero, so
    a take looks at those and at the oldest waiting job elsewhere, found in heaps of the
    clients' first jobs by age: O(log n) for n clients waiting. (Scanning every client's
    line cost 50 us a job with a class of 300 waiting, 160 us with 1,000.)"""

    def __init__(self) -> None:
        self._lines: dict[Client, deque[Ticket]] = {}
        self._size = 0
        self._order = itertools.count()
        # Per address, the first ticket of each of its clients' lines by age:
        # (queued_at, order, client, ticket); an entry whose ticket is no longer first in
        # its line is dropped when met.
        self._firsts: dict[str, list[tuple[float, int, Client, Ticket]]] = {}
        # The addresses by the age of their oldest first ticket, one live entry each
        # (`_entry_of`); a live entry may be older than the address's oldest ticket now
        # (that one was taken), and is renewed when met.
        self._addresses: list[tuple[float, int, str]] = []
        self._entry_of: dict[str, tuple[float, int]] = {}

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Ticket]:
        for line in self._lines.values():
            yield from line

    def append(self, ticket: Ticket, *, front: bool = False) -> None:
        """Behind the client's other jobs; `front`: a job taken back from a lost worker,
        which goes before the client's younger jobs (each line stays in order of age, so
        the heaps see a line's first waiting job as soon as an older one is dropped)."""
        line = self._lines.get(ticket.client)
        if line is None:
            line = self._lines[ticket.client] = deque((ticket,))
        elif front:
            line.insert(_place_by_age(line, ticket.queued_at), ticket)
        else:
            line.append(ticket)
        self._size += 1
        if line[0] is ticket:
            self._note_first(ticket)

    def remove(self, ticket: Ticket) -> bool:
        line = self._lines.get(ticket.client)
        if line is None or ticket not in line:
            return False
        first = line[0] is ticket
        line.remove(ticket)
        self._size -= 1
        if not line:
            del self._lines[ticket.client]
        elif first:
            self._note_first(line[0])
        return True

    def take(
        self, in_service: Mapping[Client, int], allowed: Callable[[Client], bool]
    ) -> Ticket | None:
        """The next job in turn whose client `allowed` lets run now (`in_service`: jobs
        at the workers by client); jobs of requests that went away are dropped."""
        per_address: dict[str, int] = {}
        for (address, _), count in in_service.items():
            per_address[address] = per_address.get(address, 0) + count
        best: tuple[tuple[int, int, float], Client] | None = None
        for address, count in per_address.items():
            if address in self._firsts:
                found = self._best_at(address, in_service, allowed)
                if found is not None and (best is None or (count, *found[:2]) < best[0]):
                    best = ((count, *found[:2]), found[2])
        elsewhere = self._oldest_elsewhere(per_address, in_service, allowed)
        if elsewhere is not None and (best is None or (0, *elsewhere[:2]) < best[0]):
            best = ((0, *elsewhere[:2]), elsewhere[2])
        if best is None:
            return None
        line = self._lines[best[1]]
        ticket = line.popleft()
        self._size -= 1
        if line:
            self._note_first(line[0])
        else:
            del self._lines[ticket.client]
        return ticket

    def clear(self) -> None:
        self._lines.clear()
        self._size = 0
        self._firsts.clear()
        self._addresses.clear()
        self._entry_of.clear()

    # ------------------------------------------------------------------ the heaps

    def _note_first(self, ticket: Ticket) -> None:
        """`ticket` is now first in its client's line."""
        address = ticket.client[0]
        heapq.heappush(
            self._firsts.setdefault(address, []),
            (ticket.queued_at, next(self._order), ticket.client, ticket),
        )
        live = self._entry_of.get(address)
        if live is None or ticket.queued_at < live[0]:
            self._push_address(address, ticket.queued_at)

    def _push_address(self, address: str, queued_at: float) -> None:
        entry = (queued_at, next(self._order), address)
        self._entry_of[address] = entry[:2]
        heapq.heappush(self._addresses, entry)

    def _first_of(self, address: str) -> tuple[float, int, Client, Ticket] | None:
        """The address's oldest first ticket, once stale entries and tickets whose
        requests went away are dropped; None when the address has none waiting."""
        firsts = self._firsts.get(address)
        while firsts:
            top = firsts[0]
            line = self._lines.get(top[2])
            if line is None or line[0] is not top[3]:
                heapq.heappop(firsts)  # that ticket was taken or removed
            elif top[3].future.done():
                heapq.heappop(firsts)
                line.popleft()
                self._size -= 1
                if line:
                    self._note_first(line[0])
                else:
                    del self._lines[top[2]]
            else:
                return top
        self._firsts.pop(address, None)
        return None

    def _best_at(
        self, address: str, in_service: Mapping[Client, int], allowed: Callable[[Client], bool]
    ) -> tuple[int, float, Client] | None:
        """(client's jobs at the workers, age, client) of the address's next job in turn:
        its lines by age until one of a client with none at the workers (only the few
        clients at the workers come before it)."""
        best: tuple[int, float, Client] | None = None
        looked: list[tuple[float, int, Client, Ticket]] = []
        firsts = self._firsts.get(address)
        while firsts is not None:
            top = self._first_of(address)
            if top is None:
                break
            looked.append(heapq.heappop(firsts))
            queued_at, _, client, _ = top
            if not allowed(client):
                continue
            count = in_service.get(client, 0)
            if best is None or (count, queued_at) < best[:2]:
                best = (count, queued_at, client)
            if count == 0:
                break
        if looked:
            heap = self._firsts.setdefault(address, [])
            for entry in looked:
                heapq.heappush(heap, entry)
        return best

    def _oldest_elsewhere(
        self,
        per_address: Mapping[str, int],
        in_service: Mapping[Client, int],
        allowed: Callable[[Client], bool],
    ) -> tuple[int, float, Client] | None:
        """The next job in turn at the addresses with none at the workers (where every
        client has none either): the oldest first ticket among them."""
        kept: list[tuple[float, int, str]] = []
        found: tuple[int, float, Client] | None = None
        addresses = self._addresses
        # An entry is never younger than its address's oldest ticket: once one is as old
        # as the job found, no address after it has an older one.
        while addresses and (found is None or addresses[0][0] < found[1]):
            entry = heapq.heappop(addresses)
            queued_at, order, address = entry
            if self._entry_of.get(address) != (queued_at, order):
                continue  # an entry since renewed
            top = self._first_of(address)
            if self._entry_of.get(address) != (queued_at, order):
                continue  # renewed while finished requests' tickets were dropped
            if top is None:
                del self._entry_of[address]
                continue
            if top[0] > queued_at:  # its oldest then was taken: renew the entry
                self._push_address(address, top[0])
                continue
            kept.append(entry)
            if address not in per_address:
                at = self._best_at(address, in_service, allowed)
                if at is not None and (found is None or at < found):
                    found = at
        for entry in kept:
            heapq.heappush(addresses, entry)
        return found
