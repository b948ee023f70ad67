"""The service on a GPU: one spawned, confined CUDA worker runs every job in turn.

A GPU worker keeps torch's caching allocator from job to job, and CUDA does not zero the
memory it reuses within a process: the blocks one job freed hold its values when the
next job is handed them. The probes read memory a program gets without writing it: the
admitted `empty` family (the language zero-fills it) and torch's own buffers that it may
not fully write and that reach the trace (cuDNN's RNN reserve, saved for backward). None
may show the marker
31337 that the job before wrote into every block it had, nor differ from the probe's
answer before that job. Skipped where torch sees no CUDA device.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import torch

from .helpers import AppClient, comparable, make_settings, open_app

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.cuda,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device"),
]

# The marker as a value (31337, 31337.0 or 31337.), not as digits inside another number:
# a trace holds thousands of floats, and -0.00023811642313376 is not the marker.
MARKER = re.compile(r"(?<![\d.])31337(?:\.0*)?(?![\d])")

PROBES = {
    "empty": "import torch\ne = torch.empty(4096, device='cuda')\n"
    "print(int((e == 31336.0 + 1).sum()), int(e.count_nonzero()))\n",
    "empty_like": "import torch\ne = torch.empty_like(torch.zeros(65536, device='cuda'))\n"
    "print(int((e == 31336.0 + 1).sum()), int(e.count_nonzero()))\n",
    "new_empty": "import torch\ne = torch.zeros(1, device='cuda').new_empty((4096,))\n"
    "print(int((e == 31336.0 + 1).sum()), int(e.count_nonzero()))\n",
    "lstm_reserve": "import torch\nfrom torch import nn\ntorch.manual_seed(0)\n"
    "lstm = nn.LSTM(8, 16).cuda()\nout, state = lstm(torch.randn(5, 3, 8, device='cuda'))\n"
    "out.sum().backward()\nprint(out.shape, lstm.weight_ih_l0.grad.shape)\n",
    "gru_reserve": "import torch\nfrom torch import nn\ntorch.manual_seed(0)\n"
    "gru = nn.GRU(4, 8, num_layers=2).cuda()\nout, h = gru(torch.randn(7, 2, 4, device='cuda'))\n"
    "out.pow(2).mean().backward()\nprint(out.shape)\n",
}

# Every block of every size it uses holds the marker when the job ends and frees them.
MARKER_JOB = (
    "import torch\nfrom torch import nn\n"
    "keep = [torch.full((n,), 31337.0, device='cuda') for n in (16, 512, 4096, 65536, 262144, 1000000)]\n"
    "lstm = nn.LSTM(8, 16).cuda()\n"
    "with torch.no_grad():\n"
    "    for p in lstm.parameters():\n"
    "        p.fill_(31337.0)\n"
    "out, state = lstm(torch.full((5, 3, 8), 31337.0, device='cuda'))\n"
    "out.sum().backward()\n"
    "print(sum(float(k.sum()) for k in keep))\n"
)

# Twelve tensors of a million float64 are 96 MB: inside the language's element cap
# (16 million), past a 64 MiB worker's share of the GPU.
OVER_ITS_SHARE = (
    "import torch\n"
    "keep = [torch.ones(1000000, dtype=torch.float64, device='cuda') for i in range(12)]\n"
    "print(len(keep))\n"
)


class _GpuService:
    def __init__(self, api: AppClient) -> None:
        self.api = api
        self.runs = 0

    async def post(self, source: str) -> Any:
        self.runs += 1  # a distinct comment per request: nothing is cached or coalesced
        return await self.api.client.post(
            "/api/trace", json={"source": f"{source}# request {self.runs}\n", "device": "cuda"}
        )

    async def probe(self) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for name, source in PROBES.items():
            response = await self.post(source)
            assert response.status_code == 200, (name, response.text[:300])
            trace = response.json()
            assert trace["ok"], (name, trace["error"])
            assert trace["device"].startswith("cuda"), trace["device"]
            assert not MARKER.search(response.text), f"probe {name!r} shows the marker 31337"
            seen[name] = comparable(response.content)
        return seen


@pytest.fixture(scope="module")
async def gpu(anyio_backend: str) -> AsyncIterator[_GpuService]:
    settings = make_settings(workers=1, cache_mb=0, memory=256, device="cuda", timeout=10.0)
    async for api in open_app(settings):
        yield _GpuService(api)


async def test_a_gpu_job_leaves_no_values_for_the_next(gpu: _GpuService) -> None:
    before = await gpu.probe()
    again = await gpu.probe()
    assert [n for n in PROBES if before[n] != again[n]] == [], "a probe changes its own answer"
    marked = await gpu.post(MARKER_JOB)
    assert marked.json()["ok"], marked.json()["error"]
    after = await gpu.probe()
    assert [n for n in PROBES if before[n] != after[n]] == []


@pytest.fixture(scope="module")
async def small_gpu(anyio_backend: str) -> AsyncIterator[_GpuService]:
    settings = make_settings(workers=1, cache_mb=0, memory=64, device="cuda", timeout=10.0)
    async for api in open_app(settings):
        yield _GpuService(api)


async def test_a_gpu_job_past_its_share_gets_a_clear_error(small_gpu: _GpuService) -> None:
    gpu = small_gpu
    response = await gpu.post(OVER_ITS_SHARE)
    assert response.status_code == 200, response.text[:300]
    error = response.json()["error"]
    assert error is not None and error["type"] == "LimitError", error
    assert "more than 64 MiB" in error["message"], error
    # The next job runs, in this worker or in a fresh one.
    follow = await gpu.post("import torch\nprint(torch.ones(3, device='cuda').sum())\n")
    assert follow.json()["ok"], follow.json()["error"]
