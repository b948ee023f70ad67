"""The training panel's series (a loss curve, an accuracy), read from what the program
prints, plus each scalar backward pass's root.

Why from print: the program says what it tracks by printing it, and nothing else names a
number "loss" or "acc". Two readings of one print call:
- its arguments: a string label followed by a real number or a one-element real tensor
  (`print("loss", loss)`, `print("acc:", acc)`) adds that value under the label;
- its text: `label: number` or `label = number`, a number perhaps inside `tensor(...)`
  (`print(f"epoch {i} loss={loss.item():.4f}")`). The label is up to 31 letters, digits,
  underscores and spaces starting with a letter or underscore; the number is a plain
  decimal with an optional exponent. A regex over the text rather than parsing it: the
  text is the program's own free-form output, and only this one shape is read.
"""

from __future__ import annotations

import math
import re
from typing import Any

import torch
from torch.nn.parameter import UninitializedTensorMixin  # type: ignore[attr-defined]

from gradtrace.language.errors import LimitError
from gradtrace.language.tensor_text import clean_text
from gradtrace.trace.tensorvalues import json_number

Tensor = torch.Tensor
_is_wrapped = torch._C._functorch.is_functorch_wrapped_tensor

_LABELLED_NUMBER = re.compile(
    r"([A-Za-z_][A-Za-z0-9_ ]{0,30}?)\s*[:=]\s*(?:tensor\()?(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
)


# A job's plotted lines, and their points in all (in series' lengths).
PLOTTED_LINES = 64
PLOTTED_POINTS_PER_SERIES = 10


class Series:
    """Points by label, each series cut at `limit` points (a note in `truncation` says so)."""

    def __init__(self, limit: int, truncation: list[str]) -> None:
        self.points: dict[str, list[Any]] = {}
        self.lines: dict[str, int | None] = {}  # a plotted series' line
        self.plots = 0
        self.plotted_points = 0
        self.numbered: dict[str, int] = {}  # the last number given to a plotted label
        self.limit = limit
        self.truncation = truncation

    def from_print(self, text: str, args: tuple[Any, ...]) -> None:
        """The program printed `text`, made of `args`."""
        label = None
        for arg in args:
            if isinstance(arg, str):
                label = arg.strip().rstrip(":=").strip() or label
                continue
            value: Any = None
            if isinstance(arg, (int, float)) and not isinstance(arg, bool):
                value = arg
            elif (
                isinstance(arg, Tensor)
                and not isinstance(arg, UninitializedTensorMixin)
                and arg.numel() == 1
                and not arg.is_complex()
                and not _is_wrapped(arg)  # printed inside vmap: no one value
            ):
                value = arg.item()
            if value is not None and label:
                self.add(label, value)
        for match in _LABELLED_NUMBER.finditer(text):
            self.add(match.group(1).strip(), float(match.group(2)))

    def plotted(self, label: str | None, values: list[Any], length: int, line: int | None) -> None:
        """A line the program plotted (plots.py): a series of its own, under its label
        (or "line N"), one that the program's prints or another line already use
        numbered apart, so that two curves are never joined into one. Lines and their
        points are bounded for the whole job (each line's own points at `limit`)."""
        self.plots += 1
        self.plotted_points += min(length, self.limit)
        if self.plots > PLOTTED_LINES:
            raise LimitError(f"the program plotted more than {PLOTTED_LINES} lines")
        if self.plotted_points > PLOTTED_POINTS_PER_SERIES * self.limit:
            raise LimitError(
                f"the program plotted more than {PLOTTED_POINTS_PER_SERIES * self.limit:,} "
                "points in all"
            )
        name = clean_text(label) if label else f"line {self.plots}"
        if name in self.points:
            k = self.numbered.get(name, 1) + 1
            while f"{name} ({k})" in self.points:
                k += 1
            self.numbered[name] = k
            name = f"{name} ({k})"
        self.points[name] = values[: self.limit]
        self.lines[name] = line
        if length > self.limit:
            note = f"series '{name}' cut at {self.limit:,} points"
            if note not in self.truncation:
                self.truncation.append(note)

    def add(self, label: str, value: Any) -> None:
        if type(value) is int and not -(2**63) <= value < 2**63:
            # JSON writers take 64-bit integers: a bigger one as the float it rounds to,
            # one no float holds (past 1e308) left out.
            try:
                value = float(value)
            except OverflowError:
                return
        if type(value) is float and not math.isfinite(value):
            value = json_number(value)  # as TensorData writes them: JSON has no NaN
        label = clean_text(label)  # a lone surrogate, which no UTF-8 writer takes, escaped
        if label in self.lines:  # a plotted line's name: printed values go apart
            label = f"{label} (printed)"
        points = self.points.setdefault(label, [])
        if len(points) >= self.limit:
            note = f"series '{label}' cut at {self.limit:,} points"
            if note not in self.truncation:
                self.truncation.append(note)
            return
        points.append(value)
