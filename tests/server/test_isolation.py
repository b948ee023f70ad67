"""No job sees another's state; the second wall (rlimits, audit hook) holds on its own;
GPU-style spawned workers work too."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap

import pytest
import torch

from .helpers import (
    UNTIL_THE_TIME_LIMIT,
    comparable,
    make_settings,
    open_app,
    reference_trace,
)

pytestmark = pytest.mark.anyio


async def test_state_left_by_one_job_is_not_seen_by_the_next(anyio_backend: str) -> None:
    meddler = (
        "import torch\n"
        "torch.set_default_dtype(torch.float64)\n"
        "torch.set_grad_enabled(False)\n"
        "torch.set_printoptions(precision=10)\n"
        "torch.manual_seed(1234)\n"
    )
    probe = (
        "import torch\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "y = x / 3\n"
        "print(y, y.dtype, torch.is_grad_enabled(), torch.rand(1))\n"
    )
    async for api in open_app(make_settings(workers=1)):
        await api.client.post("/api/trace", json={"source": meddler})
        response = await api.client.post("/api/trace", json={"source": probe})
        assert comparable(response.content) == reference_trace(probe)


async def test_spawned_workers_give_the_same_traces(anyio_backend: str) -> None:
    """The path GPU workers take (spawn, not fork), exercised here on the CPU."""
    source = "import torch\nw = torch.randn(3, requires_grad=True)\n(w * w).sum().backward()\nprint(w.grad)\n"
    async for api in open_app(make_settings(workers=1, cpu_start="spawn")):
        response = await api.client.post("/api/trace", json={"source": source, "seed": 3})
        assert comparable(response.content) == reference_trace(source, 3)


async def test_fresh_process_per_job_mode(anyio_backend: str) -> None:
    async for api in open_app(make_settings(workers=1, max_jobs_per_worker=1)):
        pool = api.app.state.service.pools["cpu"]
        seen = set()
        for n in range(3):
            source = f"import torch\nprint(torch.ones(2) * {n})\n"
            response = await api.client.post("/api/trace", json={"source": source})
            assert comparable(response.content) == reference_trace(source)
            for _ in range(500):  # the replacement is forked after the answer
                if pool.stats().idle:
                    break
                await asyncio.sleep(0.01)
            seen.update(pool.stats().pids)
        assert len(seen) == 3


async def test_a_workers_successor_starts_with_its_last_job(anyio_backend: str) -> None:
    """A worker that reaches max_jobs is replaced by one started while its last job runs:
    a pool of one worker is never left with none."""
    async for api in open_app(make_settings(workers=1, max_jobs_per_worker=2, timeout=2.0)):
        pool = api.app.state.service.pools["cpu"]
        first = await api.client.post("/api/trace", json={"source": "print(1)\n"})
        assert first.status_code == 200
        [retiring] = pool.stats().pids
        last = asyncio.create_task(
            api.client.post("/api/trace", json={"source": UNTIL_THE_TIME_LIMIT})
        )
        successor_seen = False
        while not last.done():
            stats = pool.stats()
            if stats.starting or set(stats.pids) - {retiring}:
                successor_seen = True
                break
            await asyncio.sleep(0.01)
        assert successor_seen and not last.done(), "the successor waited for the last answer"
        assert (await last).status_code == 200
        for _ in range(500):
            stats = pool.stats()
            if stats.idle and retiring not in stats.pids and not stats.starting:
                break
            await asyncio.sleep(0.01)
        assert len(pool.stats().pids) == 1 and retiring not in pool.stats().pids


# A job whose trace grows the process by more than a quarter of 256 MiB.
BIG_JOB = """import torch
x = torch.tensor(0.5, requires_grad=True)
y = x
for i in range(6000):
    y = y * 0.999 + 0.001
y.backward()
print(x.grad)
"""


async def test_a_job_that_grew_the_worker_retires_it(anyio_backend: str) -> None:
    """A CPU worker whose job grew it by a quarter of its memory is replaced (its freed heap
    would slow every later job's memory bound); a small job keeps it."""
    async for api in open_app(make_settings(workers=1, memory=256)):
        pool = api.app.state.service.pools["cpu"]
        small = await api.client.post("/api/trace", json={"source": "print(1)\n"})
        assert small.status_code == 200
        [worker] = pool.stats().pids
        again = await api.client.post("/api/trace", json={"source": "print(2)\n"})
        assert again.status_code == 200
        assert pool.stats().pids == [worker], "a small job retired its worker"
        big = await api.client.post("/api/trace", json={"source": BIG_JOB})
        assert big.status_code == 200 and big.json()["ok"] is True, big.json()["error"]
        for _ in range(500):
            stats = pool.stats()
            if stats.idle and worker not in stats.pids and not stats.starting:
                break
            await asyncio.sleep(0.01)
        assert worker not in pool.stats().pids and len(pool.stats().pids) == 1


CONFINED = textwrap.dedent(
    """
    import ctypes, os, signal, sys
    from gradtrace.sandbox.config import WorkerConfig
    from gradtrace.sandbox.confine import confine, set_job_cpu_limit

    libc = ctypes.CDLL(None, use_errno=True)
    keep = os.dup(1)  # confine sends stdout to /dev/null: report on a kept descriptor


    def say(text):
        os.write(keep, (str(text) + "\\n").encode())


    config = WorkerConfig(memory_mb=128, timeout_s=0.5)
    confine(config, keep_fds=[keep], parent=os.getppid())
    set_job_cpu_limit(config)
    check = sys.argv[1]
    if check == "fork_python":
        try:
            os.fork()
        except PermissionError:
            say("refused")
    elif check == "fork_libc":  # past the audit hook: only RLIMIT_NPROC stops it
        pid = libc.fork()
        if pid == 0:
            os._exit(0)
        say("refused" if pid == -1 else "forked")
    elif check == "write_python":
        try:
            open("/tmp/gradtrace-confine-test", "w")
        except PermissionError:
            say("refused")
    elif check == "write_libc":  # past the hook: RLIMIT_FSIZE stops it
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        fd = libc.open(b"/tmp/gradtrace-confine-test", os.O_WRONLY | os.O_CREAT, 0o600)
        written = libc.write(fd, b"x", 1) if fd >= 0 else -1
        say("refused" if written != 1 else "wrote")
    elif check == "memory":
        try:
            block = bytearray(256 * 2**20)
        except MemoryError:
            say("refused")
    elif check == "descriptors":
        say(sorted(int(fd) for fd in os.listdir("/proc/self/fd")))
    elif check == "cpu":
        while True:
            pass
    """
)


def _confined(check: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CONFINED, check], capture_output=True, text=True, timeout=30
    )


@pytest.mark.parametrize(
    "check", ["fork_python", "fork_libc", "write_python", "write_libc", "memory"]
)
def test_a_confined_worker_is_refused(check: str) -> None:
    result = _confined(check)
    assert result.stdout.strip() == "refused", result.stderr


def test_a_confined_worker_keeps_only_its_descriptors() -> None:
    result = _confined("descriptors")
    # 0-2, the kept one (3), and the one listdir itself opens.
    assert len(eval_list(result.stdout)) <= 5, result.stdout


def eval_list(text: str) -> list[int]:
    return [int(part) for part in text.strip().strip("[]").split(",") if part.strip()]


def test_a_confined_worker_that_spins_is_killed_by_its_cpu_limit() -> None:
    result = _confined("cpu")
    assert result.returncode in (-24, -9)  # SIGXCPU past the soft limit, SIGKILL past the hard


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
async def test_cuda_workers_trace(anyio_backend: str) -> None:
    source = "import torch\nx = torch.ones(3, device='cuda', requires_grad=True)\n(x * 2).sum().backward()\nprint(x.grad)\n"
    async for api in open_app(make_settings(workers=1, device="auto")):
        response = await api.client.post("/api/trace", json={"source": source, "device": "cuda"})
        trace = response.json()
        assert trace["device"].startswith("cuda")
        assert trace["ok"] is True


# Tensors up to the limits, traced by a real worker. The trace writer's numpy once started
# OpenBLAS threads here, which a CPU worker may not: the job spun until it was killed.
TENSORS_NEAR_THE_LIMITS = {
    "mnist_batch": (
        "import torch\nfrom torch import nn\n"
        "x = torch.randn(64, 784)\nlayer = nn.Linear(784, 10)\n"
        "loss = layer(x).relu().sum()\nloss.backward()\nprint(loss.item() > 0)\n"
    ),
    "matmul_120": (
        "import torch\na = torch.randn(120, 120, requires_grad=True)\n"
        "(a @ a).sum().backward()\nprint(a.grad.shape)\n"
    ),
    "ones_10001": "import torch\nx = torch.ones(10001)\nprint(x.sum())\n",
    "near_element_limit": (
        "import torch\nx = torch.ones(999_000, requires_grad=True)\n"
        "y = (x * 2).sum()\ny.backward()\nprint(y.item())\n"
    ),
}


async def test_tensors_near_the_limits_are_traced(anyio_backend: str) -> None:
    async for api in open_app(make_settings(workers=1, timeout=5.0)):
        for name, source in TENSORS_NEAR_THE_LIMITS.items():
            response = await api.client.post("/api/trace", json={"source": source})
            trace = response.json()
            assert trace["ok"] is True, (name, trace["error"])


async def test_a_forked_worker_bounds_its_own_memory(anyio_backend: str) -> None:
    """The memory bound reads the worker's own resident size: the zygote's /proc/self/statm,
    opened during its warm-up, named the zygote, so a worker's hoard went unseen."""
    hoard = "import torch\nx = torch.ones(1000000)\nkeep = [x.tolist() for i in range(12)]\n"
    async for api in open_app(make_settings(workers=1)):
        for _ in range(2):  # the second job runs in a worker that has already run one
            error = (await api.client.post("/api/trace", json={"source": hoard})).json()["error"]
            assert error["type"] == "LimitError", error
            assert "memory_mb" in error["message"]
