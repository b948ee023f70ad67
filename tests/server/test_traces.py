"""Every example and seed program gives, over HTTP, the trace gradtrace.run gives."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from .helpers import (
    AppClient,
    LiveServer,
    comparable,
    example_sources,
    reference_trace,
    seed_programs,
)

EXAMPLES = example_sources()
SEEDS = seed_programs()

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("example_id", list(EXAMPLES))
async def test_example_over_asgi_matches_engine(api: AppClient, example_id: str) -> None:
    source = EXAMPLES[example_id]
    response = await api.client.post("/api/trace", json={"source": source, "device": "cpu"})
    assert response.status_code == 200
    assert comparable(response.content) == reference_trace(source)


@pytest.mark.skipif(not SEEDS, reason="../shared/programs/seeds is not there")
@pytest.mark.parametrize("path", SEEDS, ids=[p.name for p in SEEDS])
async def test_seed_program_over_asgi_matches_engine(api: AppClient, path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    response = await api.client.post("/api/trace", json={"source": source, "seed": 0})
    assert response.status_code == 200
    assert comparable(response.content) == reference_trace(source)


async def test_seed_changes_the_trace_as_the_engine_does(api: AppClient) -> None:
    source = "import torch\nx = torch.randn(3, requires_grad=True)\nprint((x * 2).sum())\n"
    for seed in (0, 1, 7):
        response = await api.client.post("/api/trace", json={"source": source, "seed": seed})
        assert comparable(response.content) == reference_trace(source, seed)
    assert reference_trace(source, 0) != reference_trace(source, 1)


@pytest.mark.parametrize("example_id", list(EXAMPLES))
def test_example_over_real_uvicorn_matches_engine(live: LiveServer, example_id: str) -> None:
    source = EXAMPLES[example_id]
    response = httpx.post(f"{live.url}/api/trace", json={"source": source}, timeout=30)
    assert response.status_code == 200
    assert comparable(response.content) == reference_trace(source)
