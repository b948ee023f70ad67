"""FairQueue's order against its specification: the oldest job of the client with the
fewest jobs at the workers, within the address with the fewest, among the clients
allowed to run now; jobs of requests that went away are skipped. The specification is
the scan of every client's line that the queue did before its heaps, run side by side
with it on random sequences of appends, removals, cancellations and takes."""

from __future__ import annotations

import asyncio
import random

import pytest
from bench.fair_queue_bench import ScanningQueue

from gradtrace.sandbox.fair_queue import Client, FairQueue, Ticket
from gradtrace.sandbox.protocol import Job

JOB = Job(source="x = 1\n")


def _random_run(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    loop = asyncio.new_event_loop()
    try:
        ours, spec = FairQueue(), ScanningQueue()
        addresses = [f"10.0.0.{i}" for i in range(rng.randint(1, 4))]
        clients = [(rng.choice(addresses), f"t{i}") for i in range(rng.randint(1, 12))]
        clients += [(address, "") for address in addresses]  # tokenless: the address's
        now = 0.0
        for _ in range(steps):
            action = rng.random()
            pending = [t for t in spec.waiting() if not t.future.done()]
            if action < 0.45:
                # Distinct times: between equal ones either order is first come, first served.
                now += rng.choice((0.001, 0.5))
                ticket = Ticket(JOB, loop.create_future(), now, rng.choice(clients))
                ours.append(ticket)
                spec.append(ticket)
            elif action < 0.5 and pending:  # taken back from a lost worker: to the front
                ticket = rng.choice(pending)
                assert ours.remove(ticket) == spec.remove(ticket)
                again = ticket.again()
                ours.append(again, front=True)
                spec.append(again, front=True)
            elif action < 0.58 and pending:
                ticket = rng.choice(pending)
                assert ours.remove(ticket) == spec.remove(ticket)
                assert ours.remove(ticket) is False
            elif action < 0.66 and pending:
                rng.choice(pending).future.cancel()  # its request went away
            else:
                at_workers = rng.sample(clients, rng.randint(0, min(4, len(clients))))
                in_service = {client: rng.randint(1, 3) for client in at_workers}
                barred = set(rng.sample(clients, rng.randint(0, 2)))

                def allowed(client: Client, barred: set[Client] = barred) -> bool:
                    return client not in barred

                expected = spec.take(in_service, allowed)
                assert ours.take(in_service, allowed) is expected
        left = sorted(id(t) for t in spec.waiting() if not t.future.done())
        assert sorted(id(t) for t in ours if not t.future.done()) == left
    finally:
        loop.close()


@pytest.mark.parametrize("seed", range(300))
def test_the_order_is_the_specification_s(seed: int) -> None:
    _random_run(seed, steps=400)


def test_a_class_behind_one_address_goes_in_order_of_arrival() -> None:
    loop = asyncio.new_event_loop()
    try:
        queue = FairQueue()
        address = "192.0.2.1"
        tickets = [
            Ticket(JOB, loop.create_future(), float(i), (address, f"student{i}"))
            for i in range(300)
        ]
        for ticket in tickets:
            queue.append(ticket)
        again = Ticket(JOB, loop.create_future(), 0.5, (address, "student0"))
        queue.append(again)
        # Two students already have a job at the workers: the rest of the class goes
        # first, in order of arrival, then those two, oldest job first.
        busy = {(address, "student0"): 1, (address, "student1"): 1}
        taken = [queue.take(busy, lambda client: True) for _ in range(301)]
        assert taken == [*tickets[2:], tickets[0], again, tickets[1]]
        assert queue.take(busy, lambda client: True) is None and len(queue) == 0
    finally:
        loop.close()
