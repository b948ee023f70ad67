"""A name or attribute that is not there: the error is CPython's, word for word, and the
hint says what went wrong in this program (a typo, a missing import, a name the program
itself unbound)."""

from __future__ import annotations

import contextlib
import io
import runpy
import tempfile
from pathlib import Path

import pytest

import gradtrace

# program -> the hint gradtrace gives
HINTS: dict[str, str | None] = {
    "pirnt(1)\n": "did you mean `print`?",
    "x = torch.ones(1)\n": "add the import at the top, e.g. `import torch`",
    "x = np.ones(3)\n": "add the import at the top: `import numpy as np`",
    "import torch\nx = torch.tensr([1.0])\n": "did you mean `torch.tensor`?",
    "import torch\nprint(torch.nn.functonal)\n": "did you mean `torch.nn.functional`?",
    "import torch\ndel torch\nprint(torch.ones(1))\n": "`torch` was deleted by `del` on line 2",
    "x = 1\ndef f():\n    global x\n    del x\nf()\nprint(x)\n": (
        "`x` was deleted by `del` on line 4"
    ),
    "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    pass\nprint(e)\n": (
        "`e` is unbound when its `except ... as e` block (line 3) ends: keep it under another name"
    ),
    # Unbound elsewhere: in a function's own scope, not the one the failing read looks in.
    "def f():\n    x = 1\n    del x\nf()\nprint(x)\n": None,
    "def f():\n    try:\n        1 / 0\n    except ZeroDivisionError as e:\n        pass\n"
    "f()\nprint(e)\n": None,
}


def _cpython_error(source: str) -> tuple[str, str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "program.py")
        path.write_text(source)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                runpy.run_path(str(path), run_name="__main__")
        except Exception as exc:  # the program's own error, whatever it is
            return type(exc).__name__, str(exc)
    raise AssertionError("the program ran without an error under CPython")


@pytest.mark.parametrize("source", list(HINTS))
def test_the_error_is_cpythons_and_the_hint_says_why(source: str) -> None:
    error = gradtrace.run(source).error
    assert error is not None
    assert (error.type, error.message) == _cpython_error(source)
    assert error.hint == HINTS[source]
