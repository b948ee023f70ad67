"""What recording a node costs as an object (records.py's TensorRec, FunctionRec and a
Forward event) against the same fields appended to parallel lists, one per field, with an
event code and argument in two more: the question columnar recording would answer.

    python bench/columns_micro.py

Both read the same torch attributes of the same 1,000 tensors of a chain; the best of 20
rounds, in microseconds a node.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import torch

from gradtrace.trace.events import Forward
from gradtrace.trace.records import FunctionRec, TensorRec, grad_fn_of, version_of

NODES = 1_000
ROUNDS = 20


def _chain() -> list[torch.Tensor]:
    y = torch.tensor(0.5, requires_grad=True)
    made = []
    for _ in range(NODES):
        y = y * 0.999
        made.append(y)
    return made


class _Columns:
    """A tensor node's fields as columns, indexed by the node's number."""

    def __init__(self) -> None:
        self.number: list[int] = []
        self.tensor: list[torch.Tensor] = []
        self.version: list[int] = []
        self.grad_fn: list[Any] = []
        self.node: list[Any] = []
        self.label: list[str | None] = []
        self.name: list[str | None] = []
        self.iteration: list[int] = []
        self.retains_grad: list[bool] = []
        self.previous: list[int] = []
        self.module: list[str | None] = []
        self.loops: list[tuple[tuple[int, int], ...]] = []
        self.hooks: list[int] = []
        self.stale: list[bool] = []
        self.snapshot: list[Any] = []
        self.role: list[str] = []
        self.event_kind: list[int] = []
        self.event_arg: list[int] = []

    def add(self, number: int, t: torch.Tensor, iteration: int) -> int:
        grad_fn = grad_fn_of(t)
        self.number.append(number)
        self.tensor.append(t)
        self.version.append(version_of(t))
        self.grad_fn.append(grad_fn)
        self.node.append(None)
        self.label.append(None)
        self.name.append(None)
        self.iteration.append(iteration)
        self.retains_grad.append(False)
        self.previous.append(-1)
        self.module.append(None)
        self.loops.append(())
        self.hooks.append(0)
        self.stale.append(False)
        self.snapshot.append(None)
        if type(t) is torch.nn.Parameter:
            role = "parameter"
        elif not t.requires_grad:
            role = "input"
        else:
            role = "leaf" if grad_fn is None else "intermediate"
        self.role.append(role)
        self.event_kind.append(0)
        self.event_arg.append(number)
        return len(self.number) - 1


def main() -> None:
    tensors = _chain()

    def objects() -> None:
        records, timeline = [], []
        for i, t in enumerate(tensors):
            rec = TensorRec(f"t{i}", t, None, None, 0)
            records.append(rec)
            timeline.append(Forward(rec.id))

    def columns() -> None:
        table = _Columns()
        for i, t in enumerate(tensors):
            table.add(i, t, 0)

    def function_objects() -> None:
        [FunctionRec(f"f{i}", t.grad_fn, None, 0) for i, t in enumerate(tensors)]

    cases: dict[str, Callable[[], None]] = {
        "tensor node + Forward event, objects": objects,
        "tensor node + event, columns": columns,
        "function node, object": function_objects,
    }
    for name, fn in cases.items():
        best = float("inf")
        for _ in range(ROUNDS):
            start = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - start)
        print(f"{name:40s} {best / NODES * 1e6:.2f} us a node")


if __name__ == "__main__":
    main()
