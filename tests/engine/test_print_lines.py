"""Each print event carries the line that printed, as CPython sees it: the line of the
frame that called `print` (the program's own print, `map(print, ...)`, a function's,
a hook's that torch's engine runs)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path
from typing import Any

import gradtrace
from gradtrace.trace.models import PrintEvent

PROGRAM = """\
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x * 3
print(y)

def shout(v):
    print("in shout", v)
    return v

list(map(print, [1, 2]))
handle = x.register_hook(lambda g: print("hook", g))
y.backward()
shout(
    4,
)
for i in range(2):
    print(i,
          i * 2)
"""


def _cpython_print_lines(path: Path) -> list[int]:
    lines: list[int] = []

    def recording_print(*args: Any, **kwargs: Any) -> None:
        lines.append(sys._getframe(1).f_lineno)

    runpy.run_path(str(path), init_globals={"print": recording_print}, run_name="__main__")
    return lines


def test_each_print_event_has_the_line_cpython_printed_from(tmp_path: Path) -> None:
    path = tmp_path / "prints.py"
    path.write_text(PROGRAM)
    expected = _cpython_print_lines(path)
    trace = gradtrace.run(PROGRAM)
    assert trace.ok, trace.error
    printed = [e for e in trace.timeline if isinstance(e, PrintEvent)]
    assert [e.line for e in printed] == expected
    assert sorted(set(expected)) == [4, 7, 10, 11, 17]  # every print site reached
