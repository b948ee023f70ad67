"""A finished job leaves nothing of the recording for the cyclic GC: the recorder, its
records, snapshots and tensors are freed by reference counting when the call returns,
and `gradtrace.run`'s Trace when the caller drops it. A cycle there kept every tensor a
program made alive until a collection found it, and made that collection scan them all.

The evaluator's own objects (its scopes, a program's functions, classes and hooks) are
asked about in test_job_frees.py.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
import torch
from engine_support import PROGRAMS, cyclic_garbage
from pydantic import BaseModel

import gradtrace
from gradtrace import Limits
from gradtrace.trace.records import TensorRec
from gradtrace.trace.session import trace_program

CHAIN = """import torch
x = torch.tensor(0.5, requires_grad=True)
y = x
for i in range(50):
    y = y * 0.999 + 0.001
y.backward()
print(x.grad)
"""

SOURCES = [pytest.param(CHAIN, id="scalar chain")] + [
    pytest.param((PROGRAMS / name).read_text(encoding="utf-8"), id=name)
    for name in (
        "p14_multiple_backward.py",
        "p18_hooks.py",
        "p21_custom_function.py",
        "p26_sgd_loop.py",
        "p37_index_error.py",
    )
]


def _recording_garbage(call: Callable[[], Any]) -> list[str]:
    """What of the recording a collection finds after `call()`'s result is dropped."""
    return cyclic_garbage(call, _of_the_recording, _describe)


def _of_the_recording(obj: Any) -> bool:
    module = getattr(type(obj), "__module__", "") or ""
    return (
        module.startswith(("gradtrace.trace", "gradtrace.capture"))
        or isinstance(obj, (torch.Tensor, BaseModel))
        or (type(obj).__name__ in ("function", "method") and _defined_in_trace(obj))
    )


def _defined_in_trace(fn: Any) -> bool:
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    filename = Path(code.co_filename).as_posix() if code is not None else ""
    return "/gradtrace/trace/" in filename or filename.endswith("/gradtrace/capture.py")


def _describe(obj: Any) -> str:
    return f"{type(obj).__module__}.{type(obj).__qualname__}"


@pytest.mark.parametrize("source", SOURCES)
def test_run_leaves_no_cycles(source: str) -> None:
    assert _recording_garbage(lambda: gradtrace.run(source)) == []


@pytest.mark.parametrize("source", SOURCES)
def test_the_json_job_leaves_no_cycles(source: str) -> None:
    assert _recording_garbage(lambda: gradtrace.run_json(source)) == []


def test_capture_leaves_no_cycles() -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
    x = torch.randn(5, 3)

    def captured() -> Any:
        return gradtrace.capture(model(x).sum(), params=model)

    assert _recording_garbage(captured) == []


def test_the_check_can_fail() -> None:
    """The same count finds a Trace kept in a cycle."""

    def cyclic() -> Any:
        trace = gradtrace.run(CHAIN)
        holder: dict[str, Any] = {"trace": trace}
        holder["self"] = holder
        return None

    assert "gradtrace.trace.models.Trace" in _recording_garbage(cyclic)


def _records_alive() -> int:
    return sum(type(o) is TensorRec for o in gc.get_objects())


@pytest.mark.parametrize("source", SOURCES)
def test_a_job_freed_once_its_trace_is_sent(source: str) -> None:
    """A worker sends the trace, then frees the job (`release_later`): until then its
    records live and the cyclic GC stays off (switched on, its next pass would walk them
    all); then reference counting frees them all and the GC is as it was."""
    gc.collect()
    collecting = gc.isenabled()
    later: list[Callable[[], None]] = []
    payload = trace_program(source, device="cpu", seed=0, limits=Limits(), release_later=later)
    try:
        assert orjson.loads(payload)["nodes"]
        assert len(later) == 1
        assert not gc.isenabled()
        assert _records_alive() > 0
    finally:
        for release in later:
            release()
    assert gc.isenabled() == collecting
    assert _records_alive() == 0

    def released() -> None:
        again: list[Callable[[], None]] = []
        trace_program(source, device="cpu", seed=0, limits=Limits(), release_later=again)
        again.pop()()

    assert _recording_garbage(released) == []
