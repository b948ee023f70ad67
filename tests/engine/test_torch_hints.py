"""The errors every autograd learner meets: the error is torch's own, as CPython + torch
gives it, and the hint says what to do about it (trace/session.py _TORCH_HINTS)."""

from __future__ import annotations

import contextlib
import io
import runpy
from pathlib import Path

import pytest
import torch

import gradtrace

# program -> a phrase of the hint
PROGRAMS: dict[str, str] = {
    "import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\n"
    "y.backward()\ny.backward()\n": "retain_graph=True",
    "import torch\nx = torch.ones(2)\nx.sum().backward()\n": "requires_grad=True",
    "import torch\nx = torch.ones(2, requires_grad=True)\n(x * 2).backward()\n": "scalar",
    "import torch\nw = torch.ones(2, requires_grad=True)\nw -= 0.1\n": "torch.no_grad()",
    "import torch\na = torch.ones(2, 3)\nb = torch.ones(4, 5)\nprint(a @ b)\n": "inner sizes",
    "import torch\nprint(torch.ones(2) + torch.ones(3))\n": "print(x.shape)",
    "import torch\nimport torch.functional as F\nF.relu(torch.ones(2))\n": (
        "import torch.nn.functional as F"
    ),
    "import torch\nx = torch.ones(2, requires_grad=True)\ny = x.exp()\ny += 1\n"
    "y.sum().backward()\n": "out-of-place",
}
if not torch.cuda.is_available():
    PROGRAMS["import torch\nx = torch.ones(2).cuda()\n"] = "torch.cuda.is_available()"


def _cpython_error(source: str, folder: Path) -> tuple[str, str]:
    path = folder / "program.py"
    path.write_text(source)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(str(path), run_name="__main__")
    except Exception as exc:  # the program's own error, whatever it is
        return type(exc).__name__, str(exc)
    raise AssertionError("the program ran without an error under CPython")


@pytest.mark.parametrize("source", list(PROGRAMS))
def test_torch_error_as_cpython_gives_it_with_a_hint(source: str, tmp_path: Path) -> None:
    error = gradtrace.run(source).error
    assert error is not None
    assert (error.type, error.message) == _cpython_error(source, tmp_path)
    assert error.hint is not None and PROGRAMS[source] in error.hint, error.hint
