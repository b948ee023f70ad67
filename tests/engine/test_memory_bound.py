"""The memory bound measures the process that runs the program, also after a fork."""

from __future__ import annotations

import os

import pytest

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


def test_ordinary_programs_stay_under_it() -> None:
    trace = gradtrace.run("import torch\nx = torch.ones(1000000)\nprint(x.tolist()[:2])\n")
    assert trace.ok, trace.error
