"""What the evaluator asks of the recorder: the whole interface between language/ and
trace/. The Recorder (trace/recorder.py) is one implementation; the evaluator knows only
this, so a program can run under another (capture, a null recorder) without it changing.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

from torch import Tensor, nn


class Recording(Protocol):
    #: False while recording is paused (inside a Function's own forward, a transform).
    active: bool
    #: Whether the recorder itself is reading saved tensors (program hooks must not run).
    peeking: bool
    #: True while torch's engine runs a recorded backward pass: each statement the program
    #: runs then (a hook's, a custom Function's backward) is reported with `line`.
    stepping: bool
    #: Elements each tensor counts for (a vmap's batch), and how many tensors were made.
    scale: int
    made: int
    #: The nn.Module calls and the source loops the evaluator is inside (each loop's
    #: line and iteration, outermost first).
    module_stack: list[str]
    loops: tuple[tuple[int, int], ...]

    def result(
        self, t: Tensor, node: ast.AST | None, label: str | None, inputs: tuple[Any, ...]
    ) -> Any:
        """A tensor an operator in the source produced."""

    def node_of(self, t: Tensor) -> Any:
        """The node of `t`, recording it as an input met along the way if new."""

    def before_inplace(self, t: Tensor, node: ast.AST | None = None) -> None:
        """`t` is about to change in place (at `node`, when the source says where)."""

    def grads_may_change(self, node: ast.AST | None) -> None:
        """`zero_grad()` is about to run at `node`."""

    def inplace_result(
        self, t: Tensor, node: ast.AST | None, label: str | None, before: Any, *others: Any
    ) -> None:
        """`t` was changed in place by the source."""

    def untracked(self, t: Tensor) -> None:
        """A tensor made while recording is off: it counts toward the budget while alive."""

    def adopt_parameters(self, module: nn.Module, node: ast.AST | None, label: str | None) -> None:
        """A Module was just built: its parameters are leaves from this line on."""

    def name(self, t: Any, name: str) -> None:
        """The program bound `t` to `name`."""

    def alias(self, alias: Any, origin: Tensor) -> None:
        """`alias` shares `origin`'s storage (`x.data`)."""

    def print(self, text: str, args: tuple[Any, ...], line: int | None) -> None:
        """The program printed `text` (made of `args`) at `line`."""

    def plotted(self, label: str | None, values: list[Any], length: int, line: int | None) -> None:
        """The program plotted a line of `length` numbers (the first of them `values`),
        labelled `label`, at `line` (plots.py)."""

    def suspended(self) -> AbstractContextManager[None]:
        """Recording paused for a block."""

    def special_call(self, target: Any) -> Callable[..., Any] | None:
        """The recorder's own handling of a call (an optimizer step), if it has one."""

    def tensor_special(self, name: str) -> Callable[..., Any] | None:
        """The recorder's own handling of a tensor method (backward, register_hook)."""

    def line(self, node: ast.AST) -> None:
        """The program runs the statement (or lambda body) `node` during a backward pass."""

    def hidden_pass(self, kind: str, node: ast.AST | None, retain: bool, create: bool) -> None:
        """A backward pass torch runs inside a transform."""
