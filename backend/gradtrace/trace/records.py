"""The records a trace is built from: one per tensor version, per autograd Node, per
backward pass; and how the recorder reads a tensor's grad_fn and version safely."""

from __future__ import annotations

import ast
from typing import Any

import torch
from torch import nn

from gradtrace.trace.tensordata import Snapshot

Tensor = torch.Tensor
_Parameter = nn.Parameter
_BackwardCFunction = torch.autograd.function.BackwardCFunction
_is_wrapped = torch._C._functorch.is_functorch_wrapped_tensor
_unwrapped = torch._C._functorch.get_unwrapped

# A released record's tensor: empty, of its dtype and device (serialization reads those).
_RELEASED: dict[torch.dtype, Tensor] = {}


def stand_in(t: Tensor) -> Tensor:
    if t.is_cpu:
        return _RELEASED.setdefault(t.dtype, torch.empty(0, dtype=t.dtype))
    return torch.empty(0, dtype=t.dtype, device=t.device)


def unwrap_dead(t: Tensor) -> Tensor:
    """A tensor of torch.func's (vmap's, grad's) that escaped the transform it was made in
    holds no values of its own any more: the tensor it wrapped does."""
    while _is_wrapped(t):
        t = _unwrapped(t)
    return t


def grad_fn_of(tensor: Tensor) -> Any:
    """`tensor.grad_fn`; None for a view made under no_grad whose base then changed in
    place, which torch refuses to answer for (its grad_fn was None when it was made)."""
    try:
        return tensor.grad_fn
    except RuntimeError:
        return None


def version_of(tensor: Tensor) -> int:
    """torch's count of in-place changes; -1 for an inference tensor, which keeps none
    (made under `torch.inference_mode()`, it cannot be changed in place outside it)."""
    return -1 if tensor.is_inference() else tensor._version


class TensorRec:
    __slots__ = (
        "grad_fn", "hooks", "id", "iteration", "label", "loops", "module", "name", "node",
        "previous", "retains_grad", "role", "snapshot", "stale", "tensor", "version",
    )  # fmt: skip

    def __init__(
        self, rid: str, tensor: Tensor, node: ast.AST | None, label: str | None, iteration: int
    ):
        self.id = rid
        self.tensor = tensor
        try:  # read directly: this runs for every tensor recorded
            self.version = tensor._version
            self.grad_fn = tensor.grad_fn
        except RuntimeError:  # an inference tensor's version; a grad_fn torch refuses
            self.version = version_of(tensor)
            self.grad_fn = grad_fn_of(tensor)
        self.node = node
        self.label = label
        self.name: str | None = None
        self.iteration = iteration
        self.retains_grad = False
        self.previous: TensorRec | None = None
        self.module: str | None = None
        self.loops: tuple[tuple[int, int], ...] = ()
        self.hooks = 0
        self.stale = False
        self.snapshot: Snapshot | None = None
        if type(tensor) is _Parameter:
            self.role = "parameter"
        elif not tensor.requires_grad:
            self.role = "input"
        elif self.grad_fn is None:
            self.role = "leaf"
        else:
            self.role = "intermediate"


class FunctionRec:
    __slots__ = (
        "custom", "fn", "hook_handles", "hook_key", "hooked_at", "id", "iteration", "loops",
        "module", "node", "op", "prehooked", "saved", "saved_read", "sequence_nr", "tensor",
    )  # fmt: skip

    def __init__(self, rid: str, fn: Any, node: ast.AST | None, iteration: int):
        self.id = rid
        self.fn = fn
        self.op = type(fn).__name__
        self.node = node
        self.iteration = iteration
        self.custom = isinstance(fn, _BackwardCFunction)
        self.module: str | None = None
        self.loops: tuple[tuple[int, int], ...] = ()
        self.tensor: TensorRec | None = None
        self.saved: list[dict[str, Any]] = []
        # Whether `saved` was read from torch (when the Node was made).
        self.saved_read = False
        # The recorder's hooks on `fn` (passes.py): the key they look this record up by,
        # whether a pre-hook is among them, the passes' epoch when they were registered,
        # and their handles once they were registered again.
        self.hook_key = 0
        self.prehooked = False
        self.hooked_at = -1
        self.hook_handles: tuple[Any, ...] = ()
        try:
            self.sequence_nr: int | None = fn._sequence_nr()
        except (AttributeError, RuntimeError):
            self.sequence_nr = None


class PassRec:
    __slots__ = ("create_graph", "index", "kind", "line", "retain_graph", "root")

    def __init__(
        self,
        index: int,
        root: TensorRec | None,
        line: int,
        retain_graph: bool,
        kind: str,
        create_graph: bool,
    ):
        self.index = index
        self.root = root
        self.line = line
        self.retain_graph = retain_graph
        self.kind = kind
        self.create_graph = create_graph
