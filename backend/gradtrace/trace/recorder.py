"""The recorder: turns what the evaluator and torch's autograd do into a trace.

Tensor nodes come from the evaluator (every tensor an operator in the source produced,
plus inputs met along the way); function nodes are torch's own autograd Nodes, found by
walking `grad_fn.next_functions`. During a backward pass one post-hook per Node records
its grad_inputs and grad_outputs in the order the engine really runs them; the gradient
that reached a tensor is the grad_output of the Node that made it. Every hook added is
removed when the pass ends.
"""

from __future__ import annotations

import ast
import re
import sys
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import torch
from torch import nn
from torch.nn.parameter import UninitializedTensorMixin  # type: ignore[attr-defined]

from gradtrace.identity import identity
from gradtrace.language.errors import LimitError
from gradtrace.language.limits import Limits
from gradtrace.language.module_tables import module_parameters
from gradtrace.trace.backward_steps import BackwardSteps
from gradtrace.trace.events import Event, Forward, Freed, FunctionRan, GradReached, Printed
from gradtrace.trace.leaves import LeafLedger
from gradtrace.trace.tensordata import Snapshot

Tensor = torch.Tensor
_BackwardCFunction = torch.autograd.function.BackwardCFunction
_is_wrapped = torch._C._functorch.is_functorch_wrapped_tensor
_unwrapped = torch._C._functorch.get_unwrapped
_saved_names_cache: dict[type, list[str]] = {}
# Each backward() called from inside another (from a hook or a custom backward) nests
# through torch's C++ engine on the same stack: a few levels are real uses, more is a bomb.
_MAX_NESTED_PASSES = 4


def _saved_names(kind: type) -> list[str]:
    names = _saved_names_cache.get(kind)
    if names is None:
        names = [n for n in dir(kind) if n.startswith("_saved_")]
        # torch's own Node classes are cached; a program's custom Function is not: its
        # class leads to the program's code, and so to the job's recorder and tensors.
        if not issubclass(kind, _BackwardCFunction):
            _saved_names_cache[kind] = names
    return names


def _not_tensors(kind: type, name: str) -> None:
    """This saved attribute holds a number (torch's generated code types each one): skip it."""
    names = _saved_names_cache.get(kind)
    if names is not None and name in names:
        _saved_names_cache[kind] = [n for n in names if n != name]


# A released record's tensor: empty, of its dtype and device (serialization reads those).
_RELEASED: dict[torch.dtype, Tensor] = {}


def _stand_in(t: Tensor) -> Tensor:
    if t.is_cpu:
        return _RELEASED.setdefault(t.dtype, torch.empty(0, dtype=t.dtype))
    return torch.empty(0, dtype=t.dtype, device=t.device)


def _unwrap_dead(t: Tensor) -> Tensor:
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


def _untracked_freed(recorder: weakref.ReferenceType[Recorder], key: int) -> None:
    rec = recorder()
    if rec is not None:
        rec._release(key)


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
        if type(tensor) is nn.Parameter:
            self.role = "parameter"
        elif not tensor.requires_grad:
            self.role = "input"
        elif self.grad_fn is None:
            self.role = "leaf"
        else:
            self.role = "intermediate"


class FunctionRec:
    __slots__ = (
        "custom", "fn", "id", "iteration", "loops", "module", "node", "op", "saved",
        "sequence_nr", "tensor",
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
        try:
            self.sequence_nr: int | None = fn._sequence_nr()
        except (AttributeError, RuntimeError):
            self.sequence_nr = None


class Probe:
    """One run of the gradient check: leaf `leaf`, element `element`, moved by `delta`."""

    __slots__ = ("delta", "element", "leaf", "value")

    def __init__(self, leaf: int, element: int, delta: float) -> None:
        self.leaf = leaf
        self.element = element
        self.delta = delta
        self.value: float | None = None


class ProbeDone(BaseException):
    """Stops a gradient-check run at its first backward pass, once the root is known."""


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


_LABELLED_NUMBER = re.compile(
    r"([A-Za-z_][A-Za-z0-9_ ]{0,30}?)\s*[:=]\s*(?:tensor\()?(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
)


class Recorder:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.active = True
        self.in_backward = False
        # While a recorded pass runs: the evaluator reports each statement it runs (`line`).
        self.stepping = False
        self.backward_depth = 0
        # Set while the recorder reads a Node's saved tensors: an unpack hook of the
        # program's (saved_tensors_hooks) then declines, so no program code runs for it.
        self.peeking = False
        self.tensors: list[TensorRec] = []
        self.functions: list[FunctionRec] = []
        self.by_tensor: dict[int, TensorRec] = {}
        self.by_fn: dict[int, FunctionRec] = {}
        self.by_output: dict[tuple[int, int], TensorRec] = {}
        self.aliases: dict[int, tuple[Tensor, Tensor]] = {}
        # Every recorded version of a tensor object, whose snapshots an in-place change freezes.
        self.versions: dict[int, list[TensorRec]] = {}
        self.unfrozen: dict[int, list[TensorRec]] = {}
        # The AccumulateGrad Node of each leaf tensor, by the tensor's id.
        self.leaf_accumulators: dict[int, FunctionRec] = {}
        # (source, target) -> kind, in the order the edges were found.
        self.edges: dict[tuple[str, str], str] = {}
        self.timeline: list[Event] = []
        self.passes: list[PassRec] = []
        self.iteration = 0
        self.current_pass = -1
        self.pass_blobs: dict[int, Snapshot] = {}
        self.pass_refs: list[Tensor] = []
        self.pass_seen: set[str] = set()
        self.stdout: list[str] = []
        self.stdout_chars = 0
        self.series: dict[str, list[Any]] = {}
        self.truncation: list[str] = []
        self.held_elements = 0
        # Tensors made while recording is off (a Function's forward, hooks during backward),
        # counted while they live: numel by id, released by a finalizer.
        self.untracked_elements: dict[int, int] = {}
        self.untracked_total = 0
        # Inside vmap each tensor stands for a batch of them (transforms.py): `scale` of
        # them; `made` counts the elements made while recording is off, in all.
        self.scale = 1
        self.made = 0
        self.next_id = 0
        # Leaves that require grad, numbered as the program makes them; and the gradient
        # check's perturbation of one of their elements, if this is one of its runs.
        self.leaf_order: dict[int, int] = {}
        self.leaves: list[Tensor] = []
        self.probe: Probe | None = None
        # Which iterations pruning keeps (each prune narrows it), and the one asked for.
        self.kept: list[Callable[[int], bool]] = []
        self.focus: int | None = None
        self.prune_at = max(limits.graph_nodes // 4, 256)
        # The recorder's own methods that stand in for some calls, kept by name and bound
        # when asked for: a dict of bound methods would make the recorder a cycle.
        self.tensor_specials: dict[str, str] = {
            "backward": "_tensor_backward",
            "register_hook": "_register_hook",
            "retain_grad": "_retain_grad",
        }
        self.call_specials: dict[int, str] = {}
        # Where the evaluator is: the nn.Module calls and source loops it is inside.
        self.module_stack: list[str] = []
        self.loop_stack: list[list[int]] = []
        # The tensors the program still holds (its globals), kept whole by pruning.
        self.live_tensors: Callable[[], list[Tensor]] = list
        # Leaves' values and gradients over time (leaves.py); the tensor about to change
        # in place, and the node that stands for it when it is bookkeeping (no node).
        self.ledger = LeafLedger(self)
        self.inplace_target: Tensor | None = None
        self.no_node = TensorRec("", _stand_in(torch.empty(0)), None, None, 0)
        # The gradient event of each leaf in the current pass, by node id.
        self.pass_leaf_event: dict[str, int] = {}
        # The AccumulateGrad Nodes of this pass whose leaf's `.grad` was None before it.
        self.pass_none_grads: set[str] = set()
        # Inside a pass: the Node running, the program's lines, errors, freed buffers.
        self.steps = BackwardSteps(self)

    def close(self) -> None:
        """Drop what the job gave the recorder that leads back to it (`live_tensors`)."""
        self.live_tensors = list

    def bind_specials(self, namespaces: dict[str, Any]) -> None:
        autograd = namespaces["torch.autograd"].members
        self.call_specials = {
            identity(autograd["grad"]): "_autograd_grad",
            identity(autograd["backward"]): "_autograd_backward",
        }

    # ------------------------------------------------------------------ hooks into the evaluator

    def special_call(self, target: Any) -> Callable[..., Any] | None:
        method = self.call_specials.get(identity(target))
        return None if method is None else getattr(self, method)

    def tensor_special(self, name: str) -> Callable[..., Any] | None:
        method = self.tensor_specials.get(name)
        return None if method is None else getattr(self, method)

    @contextmanager
    def suspended(self) -> Iterator[None]:
        was = self.active
        self.active = False
        try:
            yield
        finally:
            self.active = was

    # ------------------------------------------------------------------ forward recording

    def _new_id(self, prefix: str) -> str:
        self.next_id += 1
        return f"{prefix}{self.next_id}"

    def _snapshot(self, t: Tensor) -> Snapshot:
        # Whether its values fit the trace's size budget is decided when the trace is
        # written, once pruning has dropped what will not be sent (serialize.py).
        return Snapshot(_unwrap_dead(t), self.limits.full_values, self.limits.preview_values)

    def _fresh(self, rec: TensorRec | None, t: Tensor) -> bool:
        return (
            rec is not None
            and rec.tensor is t
            and not rec.stale
            and rec.version == version_of(t)
            and rec.grad_fn is grad_fn_of(t)
        )

    def _add_tensor(self, t: Tensor, node: ast.AST | None, label: str | None) -> TensorRec:
        self.ledger.flush()
        if t.requires_grad and grad_fn_of(t) is None and identity(t) not in self.leaf_order:
            self._new_leaf(t)
        rec = TensorRec(self._new_id("t"), t, node, label, self.iteration)
        rec.module = self.module_stack[-1] if self.module_stack else None
        rec.loops = tuple((line, i) for line, i in self.loop_stack) if self.loop_stack else ()
        previous = self.by_tensor.get(identity(t))
        if previous is not None and previous.tensor is t:
            rec.name = previous.name
            rec.retains_grad = previous.retains_grad
            rec.previous = previous
        rec.snapshot = self._snapshot(t)
        self.held_elements += t.numel()
        self._check_elements()
        self.tensors.append(rec)
        self.by_tensor[identity(t)] = rec
        self.versions.setdefault(identity(t), []).append(rec)
        self.unfrozen.setdefault(identity(t), []).append(rec)
        self.timeline.append(Forward(rec.id))
        if len(self.tensors) + len(self.functions) > self.prune_at:
            self._prune_during_run()
        return rec

    def _check_elements(self) -> None:
        if self.held_elements + self.untracked_total > self.limits.total_elements:
            self._release_dead()
        if self.held_elements + self.untracked_total > self.limits.total_elements:
            raise LimitError(
                f"the program's tensors hold more than {self.limits.total_elements:,} elements in all"
            )

    def _release_dead(self) -> None:
        """Let go of the tensors that only the recorder still holds: the budget is about
        what is alive. Their records keep what the trace shows of them (snapshots), with
        a stand-in of the same dtype and device in place of the tensor."""
        held: dict[int, list[TensorRec]] = {}
        for rec in self.tensors:
            if rec.tensor.numel():  # stand-ins are empty
                held.setdefault(identity(rec.tensor), []).append(rec)
        leaves = {identity(t) for t in self.leaves}
        for key, recs in held.items():
            t = recs[0].tensor
            if key in leaves:
                continue
            # References the recorder holds: each record's, each snapshot still on it,
            # and this function's own (`t`, `recs[0].tensor` is the same object) and
            # getrefcount's argument.
            ours = len(recs) + sum(1 for r in recs if r.snapshot and r.snapshot.source is t)
            if sys.getrefcount(t) > ours + 2:
                continue  # the program (or autograd's Python side) still holds it
            for rec in recs:
                if rec.snapshot is not None:
                    rec.snapshot.release()
                rec.tensor = _stand_in(t)
            self.held_elements -= t.numel() * len(recs)

    def untracked(self, t: Tensor) -> None:
        """A tensor made while recording is off: it counts toward the budget while alive."""
        key = id(t)
        if key in self.untracked_elements:
            return
        n = t.numel() * self.scale
        self.made += n
        self.untracked_elements[key] = n
        self.untracked_total += n
        # The finalizer holds the recorder weakly: the registry of finalizers lives as
        # long as the process, and the recorder may hold `t` itself (a record of it).
        weakref.finalize(t, _untracked_freed, weakref.ref(self), key)
        self._check_elements()

    def _release(self, key: int) -> None:
        self.untracked_total -= self.untracked_elements.pop(key, 0)

    def _new_leaf(self, t: Tensor) -> None:
        """Number the leaves in the order the program makes them (the gradient check's keys)."""
        index = len(self.leaf_order)
        self.leaf_order[identity(t)] = index
        self.leaves.append(t)
        probe = self.probe
        if probe is not None and probe.leaf == index:
            with torch.no_grad():
                t.view(-1)[probe.element] += probe.delta

    def adopt_parameters(self, module: nn.Module, node: ast.AST | None, label: str | None) -> None:
        """A Module was just built: its parameters are leaves from this line on."""
        for _, param in module_parameters(module):
            self.result(param, node, label, ())

    def node_of(self, t: Tensor) -> TensorRec:
        """The node of `t` as it is now, recording it (as an input met along the way) if new."""
        if t is self.inplace_target and self.ledger.is_bookkeeping(t):
            return self.no_node
        leaf = self.ledger.leaf_of(t)
        # A leaf is its one node; its `.data` only while that changes in place.
        if leaf is not None and (leaf is t or t is self.inplace_target):
            return self._leaf_node(leaf)
        rec = self.by_tensor.get(identity(t))
        if self._fresh(rec, t):
            assert rec is not None
            return rec
        rec = self._add_tensor(t, None, None)
        self._connect(rec, t, None, ())
        return rec

    def _leaf_node(self, leaf: Tensor) -> TensorRec:
        """A leaf that requires grad keeps one node: torch changing it where the evaluator
        did not see it coming is an update of that node too."""
        rec = self.by_tensor[identity(leaf)]
        if identity(leaf) in self.ledger.pending:
            self.ledger.flush()
        elif rec.version != version_of(leaf):
            self.ledger.resync(rec, leaf)
        return rec

    def result(
        self, t: Tensor, node: ast.AST | None, label: str | None, inputs: tuple[Any, ...]
    ) -> TensorRec | None:
        """A tensor an operator in the source produced (None: bookkeeping, no node)."""
        leaf = self.ledger.leaf_of(t)
        if leaf is not None and leaf is t:
            if identity(t) in self.ledger.pending:
                self.ledger.changed(t, node, label)
            return self._leaf_node(t)
        rec = self.by_tensor.get(identity(t))
        if self._fresh(rec, t):
            assert rec is not None
            return rec
        if self.ledger.made_from_gradients(t, inputs):
            return None
        input_recs = [self.node_of(x) for x in inputs if isinstance(x, Tensor) and x is not t]
        rec = self._add_tensor(t, node, label)
        self._connect(rec, t, node, input_recs)
        return rec

    def inplace_result(
        self,
        t: Tensor,
        node: ast.AST | None,
        label: str | None,
        before: TensorRec | None,
        *others: Any,
    ) -> None:
        """`t` was changed in place by the source: a new version of it, fed by the old."""
        if not self.active:
            return
        self.inplace_target = None
        if before is self.no_node or (before is None and self.ledger.is_bookkeeping(t)):
            self.ledger.grads_changed(node)
            return
        leaf = self.ledger.leaf_of(t)
        if leaf is not None:
            self.ledger.changed(leaf, node, label)
            return
        inputs = [x for x in others if isinstance(x, Tensor) and x is not t]
        input_recs = [r for r in (self.node_of(x) for x in inputs) if r is not self.no_node]
        if before is not None:
            input_recs.insert(0, before)
        rec = self._add_tensor(t, node, label)
        self._connect(rec, t, node, input_recs)

    def _connect(self, rec: TensorRec, t: Tensor, node: ast.AST | None, inputs: Any) -> None:
        gf = rec.grad_fn
        if gf is not None:
            frec = self._function(gf, node)
            self.by_output[(identity(gf), t.output_nr)] = rec
            self._edge(frec.id, rec.id, "autograd")
            for inp in inputs:
                if not inp.tensor.requires_grad:
                    self._edge(inp.id, frec.id, "input")
            self._attach_saved(frec, t, inputs)
        else:
            for inp in inputs:
                self._edge(inp.id, rec.id, "nograd")
            accumulator = self.leaf_accumulators.get(identity(t))
            if accumulator is not None and accumulator.fn.variable is t:
                # A new version of a leaf (updated in place): its gradient still lands in
                # the same AccumulateGrad, which now fills this version.
                if accumulator.tensor is not None:
                    self.edges.pop((accumulator.tensor.id, accumulator.id), None)
                accumulator.tensor = rec
                self._edge(rec.id, accumulator.id, "autograd")

    def _edge(self, source: str, target: str, kind: str) -> None:
        key = (source, target)
        if key not in self.edges:
            self.edges[key] = kind

    def _function(self, gf: Any, node: ast.AST | None) -> FunctionRec:
        frec = self.by_fn.get(identity(gf))
        if frec is not None and frec.fn is gf:
            return frec
        root = self._add_function(gf, node)
        stack = [root]
        while stack:
            current = stack.pop()
            for nxt, nr in current.fn.next_functions:
                if nxt is None:
                    continue
                produced = self.by_output.get((identity(nxt), nr))
                if produced is not None and produced.grad_fn is nxt:
                    self._edge(produced.id, current.id, "autograd")
                    continue
                known = self.by_fn.get(identity(nxt))
                if known is None or known.fn is not nxt:
                    known = self._add_function(nxt, node)
                    if known.op == "AccumulateGrad":
                        self._attach_leaf(known)
                    else:
                        stack.append(known)
                self._edge(known.id, current.id, "autograd")
        return root

    def _add_function(self, gf: Any, node: ast.AST | None) -> FunctionRec:
        frec = FunctionRec(self._new_id("f"), gf, node, self.iteration)
        frec.module = self.module_stack[-1] if self.module_stack else None
        frec.loops = tuple((line, i) for line, i in self.loop_stack) if self.loop_stack else ()
        self.functions.append(frec)
        self.by_fn[identity(gf)] = frec
        return frec

    def _attach_leaf(self, frec: FunctionRec) -> None:
        leaf = frec.fn.variable
        self.leaf_accumulators[identity(leaf)] = frec
        rec = self.node_of(leaf)
        frec.tensor = rec
        frec.node = rec.node
        self._edge(rec.id, frec.id, "autograd")

    def _attach_saved(self, frec: FunctionRec, out: Tensor, inputs: Any) -> None:
        if frec.saved:
            return
        self.peeking = True
        try:
            saved = self._saved_of(frec)
        finally:
            self.peeking = False
        candidates = [out, *[i.tensor for i in inputs]]
        for name, value in saved:
            entry: dict[str, Any] = {"name": name, "node": None, "value": None}
            match = self._match(value, candidates)
            if match is not None:
                entry["node"] = match.id
            else:
                entry["value"] = self._snapshot(value)
            frec.saved.append(entry)

    def _saved_of(self, frec: FunctionRec) -> list[tuple[str, Any]]:
        """The tensors a Node saved, by name; none of those saved through program hooks."""
        fn = frec.fn
        saved: list[tuple[str, Any]] = []
        if frec.custom:
            try:
                # save_for_backward(a, None) keeps a None in its place: not a tensor to show.
                saved = [
                    (f"saved_tensors[{i}]", v)
                    for i, v in enumerate(fn.saved_tensors)
                    if isinstance(v, Tensor)
                ]
            except RuntimeError:
                return []
        else:
            for attr in _saved_names(type(fn)):
                try:
                    value = getattr(fn, attr)
                except RuntimeError:
                    continue
                name = attr.removeprefix("_saved_")
                if isinstance(value, Tensor):
                    saved.append((name, value))
                elif isinstance(value, (tuple, list)):
                    if value and all(type(v) in (int, float) for v in value):
                        _not_tensors(type(fn), attr)  # sizes or strides
                    saved.extend(
                        (f"{name}[{i}]", v) for i, v in enumerate(value) if isinstance(v, Tensor)
                    )
                elif isinstance(value, (int, float, bool, str, torch.dtype, torch.device)):
                    _not_tensors(type(fn), attr)
        return saved

    def _match(self, value: Tensor, candidates: list[Tensor]) -> TensorRec | None:
        rec = self.by_tensor.get(identity(value))
        if self._fresh(rec, value):
            return rec
        if value.numel() == 0:
            return None
        ptr = value.data_ptr()
        for c in candidates:
            if c.data_ptr() == ptr and c.shape == value.shape and c.dtype == value.dtype:
                crec = self.by_tensor.get(identity(c))
                if crec is not None and crec.tensor is c:
                    return crec
        return None

    def name(self, t: Any, name: str) -> None:
        # A lazy layer's weight before its first call has no values to record.
        if (
            not self.active
            or not isinstance(t, Tensor)
            or isinstance(t, UninitializedTensorMixin)
            or self.ledger.is_bookkeeping(t)
        ):
            return
        rec = self.by_tensor.get(identity(t))
        if not self._fresh(rec, t):
            rec = self.node_of(t)
        assert rec is not None
        if rec.name is None:
            rec.name = name

    def alias(self, alias: Any, origin: Tensor) -> None:
        """`x.data` shares x's storage but not its version counter: remember who it is."""
        if isinstance(alias, Tensor):
            self.aliases[identity(alias)] = (alias, origin)

    def grads_may_change(self, node: ast.AST | None) -> None:
        """`zero_grad()` is about to run at `node`: the gradients it changes are its."""
        self.ledger.grad_node = node

    def before_inplace(self, t: Tensor, node: ast.AST | None = None) -> None:
        """`t` is about to change in place: the node of whatever it aliases is now stale;
        a leaf that requires grad keeps its node and records an update (leaves.py)."""
        leaf = self.ledger.leaf_of(t)
        if leaf is None:
            leaf = self.ledger.storage_of(t)
        if leaf is not None:
            self.inplace_target = t
            self.ledger.will_change(leaf, node)
            return
        if self.ledger.is_bookkeeping(t):
            self.inplace_target = t
            self.ledger.dirty = True
            return
        pair = self.aliases.get(identity(t))
        if pair is not None and pair[0] is t:
            self._freeze_all(pair[1])
        self._freeze_all(t)

    def _freeze_all(self, t: Tensor) -> None:
        rec = self.by_tensor.get(identity(t))
        if rec is not None and rec.tensor is t:
            rec.stale = True
            for older in self.unfrozen.pop(identity(t), ()):
                if older.snapshot is not None:
                    older.snapshot.freeze()

    # ------------------------------------------------------------------ output

    def print(self, text: str, args: tuple[Any, ...]) -> None:
        self.stdout_chars += len(text)
        if self.stdout_chars > self.limits.output_chars:
            raise LimitError(
                f"the program printed more than {self.limits.output_chars:,} characters"
            )
        self.stdout.append(text)
        self.ledger.flush()
        self.timeline.append(Printed(text))
        self._series_from_print(text, args)

    def _series_from_print(self, text: str, args: tuple[Any, ...]) -> None:
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
                self._add_point(label, value)
        for match in _LABELLED_NUMBER.finditer(text):
            self._add_point(match.group(1).strip(), float(match.group(2)))

    def _add_point(self, label: str, value: Any) -> None:
        points = self.series.setdefault(label, [])
        if len(points) >= self.limits.series_points:
            note = f"series '{label}' cut at {self.limits.series_points:,} points"
            if note not in self.truncation:
                self.truncation.append(note)
            return
        points.append(value)

    # ------------------------------------------------------------------ backward passes

    def _tensor_backward(
        self, t: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any], node: ast.AST
    ) -> Any:
        names = ("gradient", "retain_graph", "create_graph", "inputs")
        options = dict(zip(names, args))
        options.update(kwargs)
        create = bool(options.get("create_graph"))
        retain = options.get("retain_graph")
        retain = create if retain is None else bool(retain)
        return self._run_pass(
            "backward", [t], node, retain, create, lambda: t.backward(*args, **kwargs)
        )

    def _autograd_backward(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], node: ast.AST
    ) -> Any:
        tensors = args[0] if args else kwargs.get("tensors")
        roots = [tensors] if isinstance(tensors, Tensor) else list(tensors or [])
        create = bool(kwargs.get("create_graph"))
        retain = kwargs.get("retain_graph")
        retain = create if retain is None else bool(retain)
        return self._run_pass(
            "backward",
            roots,
            node,
            retain,
            create,
            lambda: torch.autograd.backward(*args, **kwargs),
        )

    def _autograd_grad(self, args: tuple[Any, ...], kwargs: dict[str, Any], node: ast.AST) -> Any:
        outputs = args[0] if args else kwargs.get("outputs")
        roots = [outputs] if isinstance(outputs, Tensor) else list(outputs or [])
        create = bool(kwargs.get("create_graph", args[5] if len(args) > 5 else False))
        retain = kwargs.get("retain_graph", args[3] if len(args) > 3 else None)
        retain = create if retain is None else bool(retain)
        inputs = args[1] if len(args) > 1 else kwargs.get("inputs")
        wrt = [inputs] if isinstance(inputs, Tensor) else list(inputs or [])

        def call() -> Any:
            grads = torch.autograd.grad(*args, **kwargs)
            # autograd.grad stops at its inputs (their AccumulateGrad never runs): what
            # arrived there is what it returns.
            for tensor, grad in zip(wrt, grads):
                if isinstance(tensor, Tensor) and isinstance(grad, Tensor):
                    rec = self.by_tensor.get(identity(tensor))
                    if rec is not None and rec.tensor is tensor and rec.id not in self.pass_seen:
                        self.pass_seen.add(rec.id)
                        self.timeline.append(
                            GradReached(self.current_pass, rec.id, self._blob(grad), False)
                        )
            return grads

        grads = self._run_pass("grad", roots, node, retain, create, call)
        if self.active:
            label = None
            for g in grads:
                if isinstance(g, Tensor):
                    rec = self.result(g, node, label, ())
                    if rec is not None:
                        rec.role = "gradient"
        return grads

    def _run_pass(
        self,
        kind: str,
        roots: list[Any],
        node: ast.AST,
        retain: bool,
        create: bool,
        call: Callable[[], Any],
    ) -> Any:
        if self.backward_depth >= _MAX_NESTED_PASSES:
            raise LimitError(
                f"backward passes nested {_MAX_NESTED_PASSES} deep (a hook or a custom backward "
                "that calls backward() again?)"
            )
        self.backward_depth += 1
        try:
            if not self.active:
                return call()
            return self._recorded_pass(kind, roots, node, retain, create, call)
        finally:
            self.backward_depth -= 1

    def _recorded_pass(
        self,
        kind: str,
        roots: list[Any],
        node: ast.AST,
        retain: bool,
        create: bool,
        call: Callable[[], Any],
    ) -> Any:
        self.ledger.flush()
        root_recs = [self.node_of(r) for r in roots if isinstance(r, Tensor)]
        if self.probe is not None and root_recs:
            self.probe.value = root_recs[0].tensor.detach().double().sum().item()
            raise ProbeDone()
        for rec in root_recs:
            if rec.role == "intermediate":
                rec.role = "output"
        root = root_recs[0] if root_recs else None
        line = getattr(node, "lineno", 0)
        index = len(self.passes)
        self.passes.append(PassRec(index, root, line, retain, kind, create))
        if root is not None and root.tensor.numel() == 1:
            self._add_point(root.name or "loss", root.tensor.detach().item())
        handles = []
        seen: set[int] = set()
        stack = [gf for gf in (grad_fn_of(r.tensor) for r in root_recs) if gf is not None]
        if not stack:
            for r in root_recs:
                accumulate = self._accumulator_of(r)
                if accumulate is not None:
                    stack.append(accumulate)
        while stack:
            fn = stack.pop()
            if identity(fn) in seen:
                continue
            seen.add(identity(fn))
            frec = self._function(fn, node)
            if frec.tensor is not None and frec.fn.variable.grad is None:
                self.pass_none_grads.add(frec.id)
            handles.append(fn.register_hook(partial(self._post_hook, frec)))
            handles.append(self.steps.watch(fn, frec))
            for nxt, _ in fn.next_functions:
                if nxt is not None and identity(nxt) not in seen:
                    stack.append(nxt)
        self.current_pass = index
        self.in_backward = True
        self.stepping = True
        self.active = False
        try:
            return call()
        except Exception as exc:
            self.steps.failed(index, exc)
            raise
        finally:
            for handle in handles:
                handle.remove()
            self.steps.ended(index, retain, lambda f: _saved_names(type(f.fn)))
            self.in_backward = False
            self.stepping = False
            self.active = True
            self.pass_blobs.clear()
            self.pass_refs.clear()
            self.pass_seen.clear()
            self.pass_leaf_event.clear()
            self.pass_none_grads.clear()
            self.iteration += 1

    def line(self, node: ast.AST) -> None:
        """The program runs a statement during a backward pass (a hook, a custom backward)."""
        self.steps.line(node)

    def hidden_pass(self, kind: str, node: ast.AST | None, retain: bool, create: bool) -> None:
        """A backward pass torch runs inside a transform (torch.func, autograd.functional)
        over the transform's own tensors: recorded as a pass at the line that ran it, with
        no gradients shown (those tensors live only as long as the transform)."""
        line = getattr(node, "lineno", 0)
        self.passes.append(PassRec(len(self.passes), None, line, retain, kind, create))
        self.iteration += 1

    def _accumulator_of(self, rec: TensorRec) -> Any:
        frec = self.leaf_accumulators.get(identity(rec.tensor))
        return frec.fn if frec is not None and frec.fn.variable is rec.tensor else None

    def _blob(self, g: Tensor) -> Snapshot:
        snap = self.pass_blobs.get(identity(g))
        if snap is None:
            snap = self._snapshot(g)
            self.pass_blobs[identity(g)] = snap
            self.pass_refs.append(g)  # keeps its identity key from being reused within the pass
        return snap

    def _post_hook(self, frec: FunctionRec, grad_inputs: Any, grad_outputs: Any) -> None:
        p = self.current_pass
        self.steps.left(frec)
        outs = [self._blob(g) if isinstance(g, Tensor) else None for g in grad_outputs]
        ins = [self._blob(g) if isinstance(g, Tensor) else None for g in grad_inputs]
        if frec.tensor is not None:
            # AccumulateGrad may have adopted this very tensor as `.grad`, which later
            # passes or zero_() change in place: copy it now.
            for snap in outs:
                if snap is not None:
                    snap.freeze()
            self.timeline.append(FunctionRan(p, frec.id, ins, outs))
            leaf = frec.tensor
            total = self.ledger.accumulated(frec.fn.variable, frec.id in self.pass_none_grads)
            if outs and outs[0] is not None and leaf.id not in self.pass_seen:
                self.pass_seen.add(leaf.id)
                self.timeline.append(GradReached(p, leaf.id, outs[0], False, total))
            elif leaf.id in self.pass_leaf_event:
                # A hook saw the gradient first: its event shows the sum it led to.
                event = self.timeline[self.pass_leaf_event[leaf.id]]
                assert isinstance(event, GradReached)
                event.accumulated = total
            return
        fid = identity(frec.fn)
        for k, snap in enumerate(outs):
            if snap is None:
                continue
            trec = self.by_output.get((fid, k))
            if trec is not None and trec.id not in self.pass_seen:
                self.pass_seen.add(trec.id)
                self.timeline.append(GradReached(p, trec.id, snap, False))
        self.timeline.append(FunctionRan(p, frec.id, ins, outs))

    def _register_hook(
        self, t: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any], node: ast.AST
    ) -> Any:
        hook = args[0] if args else kwargs.get("hook")
        if not callable(hook):
            raise TypeError("register_hook expects a function")
        rec = self.node_of(t) if self.active else None
        if rec is not None:
            rec.hooks += 1
        node_id = rec.id if rec is not None else None
        # torch keeps the hook from C++, where the cyclic GC cannot follow: holding the
        # recorder (or a record of `t`) strongly would keep them all alive for good.
        recorder = weakref.ref(self)

        def seen_by_hook(grad: Any) -> Any:
            owner = recorder()
            if owner is None or not owner.in_backward or node_id is None:
                return hook(grad)
            if isinstance(grad, Tensor) and node_id not in owner.pass_seen:
                owner.pass_seen.add(node_id)
                owner.pass_leaf_event[node_id] = len(owner.timeline)
                event = GradReached(owner.current_pass, node_id, owner._blob(grad), True)
                owner.timeline.append(event)
            # The lines the hook runs are stepped at this tensor.
            outer, owner.steps.hook_node = owner.steps.hook_node, node_id
            try:
                return hook(grad)
            finally:
                owner.steps.hook_node = outer

        return t.register_hook(seen_by_hook)

    def _retain_grad(
        self, t: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any], node: ast.AST
    ) -> Any:
        t.retain_grad(*args, **kwargs)
        if self.active:
            self.node_of(t).retains_grad = True
        return None

    # ------------------------------------------------------------------ budgets

    def _prune_during_run(self) -> None:
        if self.iteration > self.limits.full_passes:
            recent = self.iteration - self.limits.kept_iterations + 1
            focus = self.focus
            self.prune(lambda i: i >= recent or i == focus)
        total = len(self.tensors) + len(self.functions)
        if total > self.limits.graph_nodes:
            raise LimitError(f"the graph grew past {self.limits.graph_nodes:,} nodes")
        self.prune_at = max(self.prune_at, total * 2)

    def finish_pruning(self) -> None:
        """At the end: the focused iteration, or the last ones, in full."""
        last = len(self.passes)
        focus = self.focus
        if focus is not None and last:
            focus = min(max(focus, 0), last - 1)
            self.prune(lambda i: i == focus, keep_live=False)
        elif last > self.limits.full_passes:
            recent = last - self.limits.kept_iterations + 1
            self.prune(lambda i: i >= recent)
        dropped = [i for i in range(last + 1) if not self.keeps(i)]
        if dropped:
            self.truncation.append(
                f"iterations {_ranges(dropped)} of {last}: their graphs and backward passes were "
                "dropped (request one with `iteration`); the series keep every iteration"
            )

    def keeps(self, iteration: int) -> bool:
        return all(wanted(iteration) for wanted in self.kept)

    def prune(self, wanted: Callable[[int], bool], keep_live: bool = True) -> None:
        """Keep the graph of the wanted iterations (and whatever feeds it); drop the rest."""
        self.kept.append(wanted)
        if all(self.keeps(r.iteration) for r in self.tensors) and all(
            self.keeps(f.iteration) for f in self.functions
        ):
            return
        parents: dict[str, list[str]] = {}
        for source, target in self.edges:
            parents.setdefault(target, []).append(source)
        keep: set[str] = set()
        stack = [r.id for r in self.tensors if self.keeps(r.iteration)]
        stack += [f.id for f in self.functions if self.keeps(f.iteration)]
        for p in self.passes:
            if p.root is not None and self.keeps(p.index):
                stack.append(p.root.id)
        for t in self.live_tensors() if keep_live else ():
            rec = self.by_tensor.get(identity(t))
            if rec is not None and rec.tensor is t:
                stack.append(rec.id)
        while stack:
            nid = stack.pop()
            if nid in keep:
                continue
            keep.add(nid)
            stack.extend(parents.get(nid, ()))
        for r in self.tensors:
            if r.id not in keep:
                self.held_elements -= r.tensor.numel()
        self.tensors = [r for r in self.tensors if r.id in keep]
        self.functions = [f for f in self.functions if f.id in keep]
        self.by_tensor = {k: r for k, r in self.by_tensor.items() if r.id in keep}
        self.by_output = {k: r for k, r in self.by_output.items() if r.id in keep}
        self.by_fn = {k: f for k, f in self.by_fn.items() if f.id in keep}
        self.leaf_accumulators = {k: f for k, f in self.leaf_accumulators.items() if f.id in keep}
        self.versions = {
            k: kept
            for k, recs in self.versions.items()
            if (kept := [r for r in recs if r.id in keep])
        }
        self.unfrozen = {
            k: kept
            for k, recs in self.unfrozen.items()
            if (kept := [r for r in recs if r.id in keep])
        }
        self.edges = {e: k for e, k in self.edges.items() if e[0] in keep and e[1] in keep}
        self.timeline = [e for e in self.timeline if e.kept(self.keeps, keep)]
        for e in self.timeline:
            if isinstance(e, Freed):
                e.nodes = [n for n in e.nodes if n in keep]


def _ranges(values: list[int]) -> str:
    """[0, 1, 2, 5] -> '0–2, 5'."""
    parts: list[str] = []
    start = prev = values[0]
    for v in values[1:]:
        if v == prev + 1:
            prev = v
            continue
        parts.append(f"{start}–{prev}" if prev > start else str(start))
        start = prev = v
    parts.append(f"{start}–{prev}" if prev > start else str(start))
    return ", ".join(parts)
