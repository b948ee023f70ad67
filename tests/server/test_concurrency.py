"""32 requests at once, good and hostile mixed: every good one gets its right trace."""

from __future__ import annotations

import asyncio
import os
import signal

import httpx
import orjson
import pytest

from gradtrace.sandbox import WorkerPool
from gradtrace.sandbox.pool import JobResult
from gradtrace.sandbox.protocol import Job

from .helpers import (
    UNTIL_THE_TIME_LIMIT,
    LiveServer,
    comparable,
    example_sources,
    make_settings,
    open_app,
    reference_trace,
)
from .test_hostile import EXPECTED_TYPES, HOSTILE

pytestmark = pytest.mark.anyio

GOOD = list(example_sources().values())
BAD = [
    "memory_bomb",
    "infinite_loop",
    "fork",
    "deep_recursion",
    "parser_bomb_parens",
    "tensor_bomb",
]


async def test_32_simultaneous_requests_mixing_good_and_hostile(live: LiveServer) -> None:
    jobs: list[tuple[str, str, int]] = []
    for n in range(32):
        if n % 4 == 3:
            name = BAD[(n // 4) % len(BAD)]
            jobs.append(("bad:" + name, HOSTILE[name], 100 + n))
        else:
            jobs.append(("good", GOOD[n % len(GOOD)], n % 3))
    async with httpx.AsyncClient(base_url=live.url, timeout=120) as client:
        responses = await asyncio.gather(
            *(
                client.post("/api/trace", json={"source": src, "seed": seed})
                for _, src, seed in jobs
            )
        )
    for (kind, source, seed), response in zip(jobs, responses, strict=True):
        assert response.status_code == 200
        if kind == "good":
            assert comparable(response.content) == reference_trace(source, seed)
        else:
            error = response.json()["error"]
            assert error["type"] in EXPECTED_TYPES[kind.removeprefix("bad:")]


async def test_a_freed_worker_goes_to_the_request_that_waited_longest(anyio_backend: str) -> None:
    """First come, first served: a request that asks for a worker the moment one is freed
    does not take it from a request already waiting (asyncio.Queue would let it)."""
    async for api in open_app(make_settings(workers=1)):
        assert await _finishing_order(api.app.state.service.pools["cpu"]) == [
            "first",
            "second",
            "third",
        ]


async def _finishing_order(pool: WorkerPool) -> list[str]:
    finished: list[str] = []

    async def job(label: str, n: int) -> None:
        await pool.run(Job(kind="trace", source=f"print({n})\n", seed=0))
        finished.append(label)

    async def twice() -> None:
        await job("first", 1)
        await job("third", 3)  # asks again at once, from the task that just got its answer

    first = asyncio.ensure_future(twice())
    while not pool.stats().busy:
        await asyncio.sleep(0)
    second = asyncio.ensure_future(job("second", 2))
    while not pool.stats().queued:
        await asyncio.sleep(0)
    await asyncio.gather(first, second)
    return finished


LOOP_FOREVER = UNTIL_THE_TIME_LIMIT


def _stdout(result: JobResult) -> str:
    return str(orjson.loads(result.body)["stdout"])


async def test_a_job_lined_up_behind_a_slow_one_is_taken_over_by_a_free_worker(
    anyio_backend: str,
) -> None:
    # The slow job's limit is far above what two print jobs take even on a loaded machine:
    # had the lined-up job waited for the slow one, it would end after the limit, not before.
    async for api in open_app(make_settings(workers=2, timeout=8.0)):
        pool: WorkerPool = api.app.state.service.pools["cpu"]
        pids = pool.stats().pids
        slow = asyncio.ensure_future(pool.run(Job(kind="trace", source=LOOP_FOREVER, seed=0)))
        while not pool.stats().busy:
            await asyncio.sleep(0)
        quick = asyncio.ensure_future(pool.run(Job(kind="trace", source="print(1)\n", seed=0)))
        # Both workers busy: this one is lined up behind the first worker's endless loop.
        lined = asyncio.ensure_future(pool.run(Job(kind="trace", source="print(2)\n", seed=0)))
        await asyncio.sleep(0)
        assert pool.stats().queued == 1
        await asyncio.gather(quick, lined)
        assert not slow.done()
        assert _stdout(quick.result()) == "1\n" and _stdout(lined.result()) == "2\n"
        error = orjson.loads((await slow).body)["error"]
        assert error["type"] == "LimitError"
        # The slow worker skipped the job taken from it and carries on, not replaced.
        after = await pool.run(Job(kind="trace", source="print(3)\n", seed=0))
        assert _stdout(after) == "3\n"
        assert pool.stats().pids == pids


async def test_a_job_lined_up_behind_a_killed_one_still_runs(anyio_backend: str) -> None:
    async for api in open_app(make_settings(workers=1, timeout=10.0)):
        pool: WorkerPool = api.app.state.service.pools["cpu"]
        slow = asyncio.ensure_future(pool.run(Job(kind="trace", source=LOOP_FOREVER, seed=0)))
        while not pool.stats().busy:
            await asyncio.sleep(0)
        lined = asyncio.ensure_future(pool.run(Job(kind="trace", source="print(2)\n", seed=0)))
        await asyncio.sleep(0)
        assert pool.stats().queued == 1
        (pid,) = pool.stats().pids
        os.kill(pid, signal.SIGKILL)
        error = orjson.loads((await slow).body)["error"]
        assert error["type"] == "LimitError" and "killed" in error["message"]
        assert _stdout(await lined) == "2\n"
        assert pid not in pool.stats().pids


async def test_a_client_with_nothing_at_the_workers_goes_before_one_with_many(
    anyio_backend: str,
) -> None:
    """One worker; client a has a job running, one lined up and three waiting when b
    sends one: b's goes next, then a's in their order."""
    async for api in open_app(make_settings(workers=1)):
        pool: WorkerPool = api.app.state.service.pools["cpu"]
        finished: list[str] = []
        a, b = ("10.0.0.1", "a"), ("10.0.0.1", "b")

        async def job(
            pool: WorkerPool, client: tuple[str, str], label: str, n: int, done: list[str]
        ) -> None:
            await pool.run(Job(kind="trace", source=f"print({n})\n", seed=0), client)
            done.append(label)

        first = asyncio.ensure_future(job(pool, a, "a1", 1, finished))
        while not pool.stats().busy:
            await asyncio.sleep(0)
        rest = [asyncio.ensure_future(job(pool, a, f"a{n}", n, finished)) for n in range(2, 6)]
        rest.append(asyncio.ensure_future(job(pool, b, "b1", 9, finished)))
        await asyncio.gather(first, *rest)
        assert finished == ["a1", "a2", "b1", "a3", "a4", "a5"]
