"""torch's warnings in a trace: each distinct one once, short, at the step it happened.

The reference is CPython + torch running the same file with every warning recorded
(warn-always on, as a gradtrace job runs): the trace must hold the same distinct
warnings, in the same order, at the lines CPython reports them from.
"""

from __future__ import annotations

import runpy
import warnings
from pathlib import Path
from typing import Any

import pytest
import torch

import gradtrace
from gradtrace.trace.program_warnings import short_message

PROGRAM = """\
import torch
x = torch.tensor(3.0, requires_grad=True)
y = x * 2
z = torch.tensor(y)
y.backward()
for i in range(3):
    print(y.grad)
print("done")
"""


def reference_warnings(source: str, tmp_path: Path) -> list[tuple[str, int | None]]:
    """The distinct warnings CPython + torch give running `source` as a file, first lines."""
    path = tmp_path / "program.py"
    path.write_text(source)
    was = torch.is_warn_always_enabled()
    torch.set_warn_always(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            runpy.run_path(str(path), run_name="__main__")  # trusted test source
    finally:
        torch.set_warn_always(was)
    distinct: dict[str, int | None] = {}
    for w in caught:
        distinct.setdefault(
            short_message(str(w.message)), w.lineno if w.filename == str(path) else None
        )
    return list(distinct.items())


@pytest.fixture(scope="module")
def trace() -> Any:
    return gradtrace.run(PROGRAM)


def warning_events(trace: Any) -> list[tuple[int, Any]]:
    return [(k, e) for k, e in enumerate(trace.timeline) if e.phase == "warning"]


def test_each_distinct_warning_once_at_the_reference_lines(
    trace: Any, tmp_path: Path, capsys: Any
) -> None:
    want = reference_warnings(PROGRAM, tmp_path)
    capsys.readouterr()  # the reference's prints
    assert len(want) == 2, want  # the copy-construct warning, the non-leaf .grad one
    got = [(e.message, e.line) for _, e in warning_events(trace)]
    assert got == want
    assert [(w.message, w.line) for w in trace.warnings] == want


def test_warnings_are_short(trace: Any) -> None:
    for _, e in warning_events(trace):
        assert "Triggered internally" not in e.message
        assert "/" not in e.message.replace(".detach().clone()", "")
        assert e.message.count(". ") == 0  # one sentence
    messages = [e.message for _, e in warning_events(trace)]
    assert (
        "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed." in messages
    )


def test_a_warning_sits_at_the_step_it_happened(trace: Any) -> None:
    events = trace.timeline
    (copy_at, copy), (grad_at, grad) = warning_events(trace)
    assert copy.line == 4 and grad.line == 7
    # torch.tensor(y) warns before z exists; y.grad warns after backward, before its print.
    z_forward = next(k for k, e in enumerate(events) if e.phase == "forward" and k > copy_at)
    assert all(e.phase != "backward" for e in events[copy_at:z_forward])
    last_backward = max(k for k, e in enumerate(events) if e.phase == "backward")
    first_print = next(k for k, e in enumerate(events) if e.phase == "print")
    assert last_backward < grad_at < first_print
    assert events[first_print].text == "None\n"


def test_short_message_cuts_torchs_location_and_paragraph() -> None:
    text = (
        "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its "
        ".grad attribute won't be populated during autograd.backward(). (Triggered "
        "internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)"
    )
    assert short_message(text) == (
        "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed."
    )
    assert short_message("see /usr/lib/python3/site-packages/torch/x.py:12 for more") == (
        "see … for more"
    )


FILTERED = """\
import warnings
import torch
warnings.filterwarnings("ignore", message=".*is not a leaf Tensor")
x = torch.tensor(3.0, requires_grad=True)
y = x * 2
z = torch.tensor(y)
y.backward()
print(y.grad)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    w = torch.tensor(y)
warnings.warn("the program's own", RuntimeWarning)
"""


def test_the_programs_filters_are_pythons_and_end_with_the_job(tmp_path: Path, capsys: Any) -> None:
    want = reference_warnings(FILTERED, tmp_path)
    capsys.readouterr()
    # The copy-construct warning once (line 6, not 11 inside catch_warnings), no .grad
    # warning, and the program's own.
    assert [line for _, line in want] == [6, 12], want
    filtered = gradtrace.run(FILTERED)
    assert filtered.ok, filtered.error
    assert [(w.message, w.line) for w in filtered.warnings] == want
    # The next job sees every warning again.
    after = gradtrace.run(PROGRAM)
    assert [w.line for w in after.warnings] == [4, 7]


@pytest.mark.parametrize(
    ("source", "error"),
    [
        ('warnings.simplefilter("error")', "ForbiddenError"),
        ('warnings.filterwarnings("ignore", message="(a+)+$")', "ForbiddenError"),
        ('warnings.filterwarnings("ignore", message="a.*b")', "ForbiddenError"),
        ("with warnings.catch_warnings(record=True) as w:\n    pass", "ForbiddenError"),
        ('warnings.filterwarnings("ignore", category=int)', "TypeError"),
        ('warnings.filterwarnings("sometimes")', "ValueError"),
    ],
)
def test_what_a_filter_may_not_name(source: str, error: str) -> None:
    trace = gradtrace.run(f"import warnings\n{source}\n")
    assert trace.error is not None and trace.error.type == error, trace.error
