"""The recorder's timeline: one typed event per thing that happened, in order.

Each event says which iteration or pass it belongs to (for pruning) and writes itself
as the timeline entry of API.md, its tensors placed by the writer within the trace's
size budget. Plain slotted dataclasses: a long loop records hundreds of thousands.
"""

from __future__ import annotations

from collections.abc import Callable, Set
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from gradtrace.trace.tensordata import Snapshot


class Placer(Protocol):
    def data(self, snap: Snapshot | None) -> Snapshot | dict[str, Any] | None: ...


Keeps = Callable[[int], bool]


@dataclass(slots=True)
class Forward:
    """A tensor node was made."""

    node: str

    def kept(self, keeps: Keeps, nodes: Set[str]) -> bool:
        return self.node in nodes

    def written(self, writer: Placer) -> dict[str, Any]:
        return {"phase": "forward", "node": self.node}


@dataclass(slots=True)
class Printed:
    text: str
    line: int | None  # the print's line (None: no program line ran it)

    def kept(self, keeps: Keeps, nodes: Set[str]) -> bool:
        return True

    def written(self, writer: Placer) -> dict[str, Any]:
        return {"phase": "print", "text": self.text, "line": self.line}


@dataclass(slots=True)
class Warned:
    message: str
    line: int | None

    def kept(self, keeps: Keeps, nodes: Set[str]) -> bool:
        return True

    def written(self, writer: Placer) -> dict[str, Any]:
        return {"phase": "warning", "message": self.message, "line": self.line}


@dataclass(slots=True)
class GradReached:
    """A tensor's gradient arrived in a backward pass (`hooked`: a hook saw it first)."""

    pass_: int
    node: str
    grad: Snapshot
    hooked: bool
    accumulated: Snapshot | None = None  # a leaf's `.grad` once this pass added to it

    def kept(self, keeps: Keeps, nodes: Set[str]) -> bool:
        return keeps(self.pass_) and self.node in nodes

    def written(self, writer: Placer) -> dict[str, Any]:
        return {
            "phase": "backward",
            "node_kind": "tensor",
            "pass": self.pass_,
            "node": self.node,
            "grad": writer.data(self.grad),
            "hooked": self.hooked,
            "accumulated": writer.data(self.accumulated),
        }


@dataclass(slots=True)
class FunctionRan:
    """A Function's backward ran: what it received and what it sent to each input."""

    pass_: int
    node: str
    grad_inputs: list[Snapshot | None]
    grad_outputs: list[Snapshot | None]

    def kept(self, keeps: Keeps, nodes: Set[str]) -> bool:
        return keeps(self.pass_) and self.node in nodes

    def written(self, writer: Placer) -> dict[str, Any]:
        return {
            "phase": "backward",
            "node_kind": "function",
            "pass": self.pass_,
            "node": self.node,
            "grad_inputs": [writer.data(s) for s in self.grad_inputs],
            "grad_outputs": [writer.data(s) for s in self.grad_outputs],
        }


@dataclass(slots=True)
class Updated:
    """A leaf changed outside autograd: its values or its `.grad` (trace/leaves.py)."""

    iteration: int
    node: str
    what: Literal["value", "grad"]
    value: Snapshot | None
    grad: Snapshot | None
    line: int | None
    label: str | None

    def kept(self, keeps: Keeps, nodes: Set[str]) -> bool:
        return keeps(self.iteration) and self.node in nodes

    def written(self, writer: Placer) -> dict[str, Any]:
        return {
            "phase": "update",
            "node": self.node,
            "what": self.what,
            "value": writer.data(self.value),
            "grad": writer.data(self.grad),
            "line": self.line,
            "label": self.label,
        }


@dataclass(slots=True)
class Freed:
    """The end of a pass without retain_graph: torch freed these Functions' saved tensors."""

    pass_: int
    nodes: list[str]

    def kept(self, keeps: Keeps, nodes: Set[str]) -> bool:
        return keeps(self.pass_) and any(node in nodes for node in self.nodes)

    def written(self, writer: Placer) -> dict[str, Any]:
        return {"phase": "freed", "pass": self.pass_, "nodes": self.nodes}


@dataclass(slots=True)
class LineRan:
    """A statement of the program the engine ran in a backward pass (a hook, a backward)."""

    pass_: int
    node: str | None
    line: int

    def kept(self, keeps: Keeps, nodes: Set[str]) -> bool:
        return keeps(self.pass_) and (self.node is None or self.node in nodes)

    def written(self, writer: Placer) -> dict[str, Any]:
        return {"phase": "line", "pass": self.pass_, "node": self.node, "line": self.line}


@dataclass(slots=True)
class Raised:
    """A backward pass raised inside this Function."""

    pass_: int
    node: str
    type: str
    message: str

    def kept(self, keeps: Keeps, nodes: Set[str]) -> bool:
        return keeps(self.pass_) and self.node in nodes

    def written(self, writer: Placer) -> dict[str, Any]:
        return {
            "phase": "error",
            "pass": self.pass_,
            "node": self.node,
            "type": self.type,
            "message": self.message,
        }


Event = Forward | Printed | Warned | GradReached | FunctionRan | Updated | Freed | LineRan | Raised
