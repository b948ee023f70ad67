"""The memory bound measures the process that runs the program, also after a fork."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
import torch

import gradtrace
from gradtrace.language.limits import Limits

HOARD = "import torch\nx = torch.ones(1000000)\nkeep = [x.tolist() for i in range(12)]\n"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_measures_itself() -> None:
    gradtrace.run("print(1)\n")  # the parent has read its own resident size
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        try:
            trace = gradtrace.run(HOARD, limits=Limits(wall_time_s=10))
            os.write(write, f"{trace.error.type if trace.error else 'ok'}".encode())
        finally:
            os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    with os.fdopen(read, "rb") as answer:
        assert answer.read() == b"LimitError"


# 16,000 strings of 15 KB: 240 MB, over the 192 MB default, built by concatenation (no
# repetition budget applies), each fitting a hole that earlier work left in glibc's heap.
FILL_THE_FREE_HEAP = (
    "keep = []\ns = 'a' * 15000\nfor i in range(16000):\n    keep.append(s + str(i))\n"
)


def _in_child(job: Callable[[], str]) -> str:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        try:
            os.write(write, job().encode())
        finally:
            os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    with os.fdopen(read, "rb") as answer:
        return answer.read().decode()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_memory_freed_before_the_run_is_counted_when_the_program_takes_it() -> None:
    def job() -> str:
        # 250 MB of 16 KB holes, resident and free, as a previous job can leave them.
        tensors = [torch.ones(4096) for _ in range(30000)]
        kept = tensors[::2]
        del tensors
        trace = gradtrace.run(FILL_THE_FREE_HEAP, limits=Limits(wall_time_s=30))
        del kept
        return trace.error.type if trace.error else "ok"

    assert _in_child(job) == "LimitError"


def test_ordinary_programs_stay_under_it() -> None:
    trace = gradtrace.run("import torch\nx = torch.ones(1000000)\nprint(x.tolist()[:2])\n")
    assert trace.ok, trace.error
