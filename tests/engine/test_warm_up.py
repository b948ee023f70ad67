"""The warm-up program runs cleanly on this torch, and a failing one says so: a worker
whose warm-up failed is not warm, and a confined worker may then lack a module that a
later job needs (nothing said so before)."""

from __future__ import annotations

import logging

import pytest
import torch

from gradtrace.engine import warm_up


def test_the_warm_up_program_runs_cleanly() -> None:
    assert warm_up("cpu") is True


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_the_warm_up_program_runs_cleanly_on_a_gpu() -> None:
    """On the H100 it failed twice before: a shuffled DataLoader, and the first program of
    a process outrunning a job's 5 s limit."""
    assert warm_up("cuda") is True


def test_a_failing_warm_up_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="gradtrace.engine"):
        assert warm_up("cpu", program="import torch\nx = torch.ones(2)\ny = 1 / 0\n") is False
    assert "the warm-up program failed on cpu: ZeroDivisionError" in caplog.text
