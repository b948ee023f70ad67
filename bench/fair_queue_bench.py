"""The fair queue's cost per job handed out, with 1 to 1,000 clients waiting (a class
behind one NAT address, two of them with a job at the workers): the queue beside the scan
of every client's line that it replaced, which is also its specification
(tests/sandbox/test_fair_queue.py runs both on random sequences)."""

from __future__ import annotations

import asyncio
import statistics
import timeit
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from typing import Protocol

from bench.tables import table
from gradtrace.sandbox.fair_queue import Client, FairQueue, Ticket
from gradtrace.sandbox.protocol import Job

WAITING = (1, 32, 300, 1000)
TAKES = 2000


class ScanningQueue:
    """The specification: every line scanned at each take."""

    def __init__(self) -> None:
        self.lines: dict[Client, deque[Ticket]] = {}

    def append(self, ticket: Ticket, *, front: bool = False) -> None:
        line = self.lines.setdefault(ticket.client, deque())
        if front:  # before the client's younger jobs
            younger = [t for t in line if t.queued_at > ticket.queued_at]
            line.insert(len(line) - len(younger), ticket)
        else:
            line.append(ticket)

    def remove(self, ticket: Ticket) -> bool:
        line = self.lines.get(ticket.client)
        if line is None or ticket not in line:
            return False
        line.remove(ticket)
        if not line:
            del self.lines[ticket.client]
        return True

    def take(
        self, in_service: Mapping[Client, int], allowed: Callable[[Client], bool]
    ) -> Ticket | None:
        per_address: dict[str, int] = {}
        for (address, _), count in in_service.items():
            per_address[address] = per_address.get(address, 0) + count
        best: deque[Ticket] | None = None
        best_key: tuple[int, int, float] | None = None
        for client, line in list(self.lines.items()):
            while line and line[0].future.done():
                line.popleft()
            if not line:
                del self.lines[client]
                continue
            key = (per_address.get(client[0], 0), in_service.get(client, 0), line[0].queued_at)
            if (best_key is None or key < best_key) and allowed(client):
                best, best_key = line, key
        if best is None:
            return None
        ticket = best.popleft()
        if not best:
            del self.lines[ticket.client]
        return ticket

    def waiting(self) -> Iterator[Ticket]:
        for line in self.lines.values():
            yield from line


class _Queue(Protocol):
    def append(self, ticket: Ticket, *, front: bool = False) -> None: ...

    def take(
        self, in_service: Mapping[Client, int], allowed: Callable[[Client], bool]
    ) -> Ticket | None: ...


def _take_us(make: Callable[[], _Queue], waiting: int, loop: asyncio.AbstractEventLoop) -> float:
    """Microseconds a take costs, its ticket appended again (the count stays put)."""
    queue = make()
    address = "192.0.2.1"
    for i in range(waiting):
        queue.append(Ticket(Job(source="x"), loop.create_future(), float(i), (address, f"s{i}")))
    at_workers = {(address, "busy0"): 1, (address, "busy1"): 1}

    def one() -> None:
        ticket = queue.take(at_workers, lambda client: True)
        assert ticket is not None
        ticket.queued_at += waiting
        queue.append(ticket)

    runs = timeit.repeat(one, number=TAKES, repeat=5)
    return statistics.median(runs) / TAKES * 1e6


def run_fair_queue_bench() -> list[tuple[int, float, float]]:
    loop = asyncio.new_event_loop()
    try:
        return [
            (n, _take_us(ScanningQueue, n, loop), _take_us(FairQueue, n, loop)) for n in WAITING
        ]
    finally:
        loop.close()


def markdown(rows: list[tuple[int, float, float]]) -> str:
    header = ["clients waiting", "scan of every line (us/take)", "FairQueue (us/take)"]
    body = [[n, round(scan, 1), round(ours, 1)] for n, scan, ours in rows]
    return (
        "Each job a worker gets is one take on the server's event loop; medians of 5 runs of "
        f"{TAKES:,} takes, each ticket appended again after it.\n\n" + table(header, body)
    )


if __name__ == "__main__":
    print(markdown(run_fair_queue_bench()))
