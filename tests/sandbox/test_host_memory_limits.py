"""The host-memory wall of each kind of worker, in a forked child of this test: a CPU
worker's address space is bounded (RLIMIT_AS); a GPU worker's cannot be (CUDA reserves
far more than it uses), so its private writable memory is (RLIMIT_DATA), which is where
numpy's and torch's CPU buffers live. Either way, a host allocation past a job's share and
the driver's allowance fails with MemoryError instead of taking the machine's memory."""

from __future__ import annotations

import os
import pickle

import numpy as np
import pytest

from gradtrace.sandbox.config import WorkerConfig
from gradtrace.sandbox.confine import _DRIVER_MB, apply_rlimits

MEMORY_MB = 64


def _in_child(cpu_device: bool, megabytes: int) -> str:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the worker's limits, then one allocation
        os.close(read)
        try:
            apply_rlimits(WorkerConfig(memory_mb=MEMORY_MB), cpu_device=cpu_device)
            block = np.ones(megabytes * 2**20, dtype=np.uint8)
            answer = f"made {block.nbytes // 2**20} MiB"
        except MemoryError:
            answer = "MemoryError"
        except BaseException as exc:  # reported to the parent
            answer = f"{type(exc).__name__}: {exc}"
        os.write(write, pickle.dumps(answer))
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        answer = pickle.loads(pipe.read())
    os.waitpid(pid, 0)
    return str(answer)


@pytest.mark.parametrize("cpu_device", [True, False], ids=["cpu worker", "gpu worker"])
def test_a_share_of_host_memory_is_allowed(cpu_device: bool) -> None:
    assert _in_child(cpu_device, MEMORY_MB // 2) == f"made {MEMORY_MB // 2} MiB"


@pytest.mark.parametrize("cpu_device", [True, False], ids=["cpu worker", "gpu worker"])
def test_host_memory_past_the_share_fails(cpu_device: bool) -> None:
    assert _in_child(cpu_device, MEMORY_MB + _DRIVER_MB + 256) == "MemoryError"
