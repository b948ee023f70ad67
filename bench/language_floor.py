"""The floor under the whole job's ratio: the program run by gradtrace's language with
nothing recorded, against CPython + torch on the same file.

The language is what lets a program run without exec (every name, attribute and call
checked, every size bounded first); the recording and the writing come on top. Where the
language alone is already near or over 3x, no recording or writing design brings the
whole job within 3x: only running the program as CPython bytecode would, which the
safety rules forbid.
"""

from __future__ import annotations

import ast
import contextlib
import gc
from collections.abc import Callable, Iterator
from typing import Any

from torch import Tensor, nn

from gradtrace.language.interpreter import Interpreter
from gradtrace.language.limits import Limits
from gradtrace.language.parse import parse_program
from gradtrace.trace.session import clean_torch_state


class NullRecording:
    """The evaluator's recorder interface (language/recording.py), recording nothing:
    backward(), hooks and optimizer steps run as torch's own."""

    def __init__(self) -> None:
        self.active = True
        self.peeking = False
        self.stepping = False
        self.scale = 1
        self.made = 0
        self.module_stack: list[str] = []
        self.loops: tuple[tuple[int, int], ...] = ()

    def result(
        self, t: Tensor, node: ast.AST | None, label: str | None, inputs: tuple[Any, ...]
    ) -> None:
        return None

    def node_of(self, t: Tensor) -> None:
        return None

    def before_inplace(self, t: Tensor, node: ast.AST | None = None) -> None:
        return None

    def grads_may_change(self, node: ast.AST | None) -> None:
        return None

    def inplace_result(
        self, t: Tensor, node: ast.AST | None, label: str | None, before: Any, *others: Any
    ) -> None:
        return None

    def untracked(self, t: Tensor) -> None:
        return None

    def adopt_parameters(self, module: nn.Module, node: ast.AST | None, label: str | None) -> None:
        return None

    def name(self, t: Any, name: str) -> None:
        return None

    def alias(self, alias: Any, origin: Tensor) -> None:
        return None

    def print(self, text: str, args: tuple[Any, ...], line: int | None) -> None:
        return None

    def plotted(self, label: str | None, values: list[Any], length: int, line: int | None) -> None:
        return None

    @contextlib.contextmanager
    def suspended(self) -> Iterator[None]:
        yield

    def special_call(self, target: Any) -> Callable[..., Any] | None:
        return None

    def tensor_special(self, name: str) -> Callable[..., Any] | None:
        return None

    def line(self, node: ast.AST) -> None:
        return None

    def hidden_pass(self, kind: str, node: ast.AST | None, retain: bool, create: bool) -> None:
        return None


def run_language_only(source: str, limits: Limits, seed: int = 0) -> None:
    """`source` through the language, as a job runs it (a clean torch state, the cyclic
    GC off), with nothing recorded; raises what the program raised."""
    interp = Interpreter(source, limits, NullRecording(), "cpu")
    collecting = gc.isenabled()
    gc.disable()
    try:
        with clean_torch_state(seed, "cpu"):
            interp.run(parse_program(source, limits))
    finally:
        interp.close()
        if collecting:
            gc.enable()
