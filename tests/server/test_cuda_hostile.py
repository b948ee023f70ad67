"""The hostile corpus through GPU workers: a CUDA worker has no address-space limit (CUDA
reserves far more than it uses) and keeps its driver's descriptors open, so the walls
that stop these programs on a CPU worker are not all there. Every program must still
get its clear error, never a server error, and the service must keep answering.
Skipped where torch sees no CUDA device.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import torch

from .helpers import AppClient, make_settings, open_app
from .test_hostile import CORPUS, EXPECTED_TYPES, HOSTILE

HOSTILE_DIR = CORPUS[0].parent

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.cuda,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device"),
]


# Programs that end otherwise on a GPU job than on a CPU one, with the answer each gives
# on the H100 and why.
ON_A_GPU_JOB = {
    # torch.set_default_device may name the job's own device, and nothing else
    "set_default_device_cuda_on_cpu_job.py": {"ok"},
    # a numpy array on the right of a CUDA tensor's `+=` is refused before any size check
    "np_augassign_tensor_by_array.py": {"TypeError"},
    # a CUDA tensor has no .numpy(): torch refuses it before the program reaches .ctypes
    "torch_numpy.py": {"TypeError"},
    # on a CUDA job, torch refuses this state with a TypeError before any number is drawn
    "w16_generator_set_state_zeros.py": {"TypeError"},
}


def _expected(path: Path) -> set[str]:
    if path.name in ON_A_GPU_JOB:
        return ON_A_GPU_JOB[path.name]
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    return set(first.removeprefix("# expect:").strip().split("|"))


@pytest.fixture(scope="module")
async def gpu_api(anyio_backend: str) -> AsyncIterator[AppClient]:
    settings = make_settings(workers=4, cache_mb=0, device="cuda", timeout=2.0, queue=1024)
    async for api in open_app(settings):
        yield api


async def _answers(api: AppClient, sources: dict[str, str]) -> dict[str, tuple[int, str]]:
    limit = asyncio.Semaphore(8)

    async def answer(source: str) -> tuple[int, str]:
        async with limit:
            response = await api.client.post(
                "/api/trace", json={"source": source, "device": "cuda"}
            )
        if response.status_code != 200:
            return response.status_code, ""
        trace = response.json()
        return 200, "ok" if trace["ok"] else trace["error"]["type"]

    found = await asyncio.gather(*(answer(source) for source in sources.values()))
    return dict(zip(sources, found, strict=True))


async def test_the_service_hostile_programs_fail_alike_on_a_gpu_worker(gpu_api: AppClient) -> None:
    answers = await _answers(gpu_api, HOSTILE)
    wrong = {n: a for n, a in answers.items() if a[0] != 200 or a[1] not in EXPECTED_TYPES[n]}
    assert wrong == {}
    assert not os.path.exists("/tmp/gradtrace-pwned")


async def test_every_corpus_program_fails_alike_on_a_gpu_worker(gpu_api: AppClient) -> None:
    sources = {path.name: path.read_text(encoding="utf-8") for path in CORPUS}
    answers = await _answers(gpu_api, sources)
    # Each program answers 200 with its error of the type a CPU worker gives (413: too long).
    wrong = {
        name: answer
        for name, answer in answers.items()
        if answer[0] != 413 and (answer[0] != 200 or answer[1] not in _expected(HOSTILE_DIR / name))
    }
    assert wrong == {}
    follow = await gpu_api.client.post(
        "/api/trace",
        json={"source": "import torch\nprint(torch.ones(3).cuda().sum())\n", "device": "cuda"},
    )
    assert follow.json()["ok"], follow.json()["error"]
