"""32 requests at once, good and hostile mixed: every good one gets its right trace."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from .helpers import LiveServer, comparable, example_sources, reference_trace
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
