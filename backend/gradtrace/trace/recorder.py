"""The recorder: turns what the evaluator and torch's autograd do into a trace.

Tensor nodes come from the evaluator (every tensor an operator in the source produced,
plus inputs met along the way); function nodes are torch's own autograd Nodes, found by
walking `grad_fn.next_functions`. This module records those nodes and edges (results,
in-place changes, inputs, Nodes and their saved tensors); its collaborators each hold
one other job: backward passes and hooks (passes.py), leaves' values and gradients
(leaves.py), the training panel's series (series.py), pruning (pruning.py), the element
budget (budget.py) and the gradient check's probe (probe.py).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch import nn
from torch.nn.parameter import UninitializedTensorMixin  # type: ignore[attr-defined]

from gradtrace.identity import identity
from gradtrace.language import transforms
from gradtrace.language.errors import LimitError
from gradtrace.language.limits import Limits
from gradtrace.language.module_tables import module_parameters
from gradtrace.language.tensor_text import clean_text
from gradtrace.trace.budget import ElementBudget
from gradtrace.trace.events import Event, Forward, Printed
from gradtrace.trace.leaves import LeafLedger
from gradtrace.trace.passes import BackwardPasses
from gradtrace.trace.probe import Probe
from gradtrace.trace.pruning import Pruning
from gradtrace.trace.records import (
    FunctionRec,
    PassRec,
    TensorRec,
    grad_fn_of,
    stand_in,
    unwrap_dead,
    version_of,
)
from gradtrace.trace.saved import saved_of
from gradtrace.trace.series import Series
from gradtrace.trace.tensordata import Snapshot

Tensor = torch.Tensor


class Recorder:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        # Read for every snapshot.
        self.full_values = limits.full_values
        self.preview_values = limits.preview_values
        self.active = True
        # While torch's engine runs a recorded backward pass (passes.py).
        self.in_backward = False
        # While a recorded pass runs: the evaluator reports each statement it runs (`line`).
        self.stepping = False
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
        self.stdout: list[str] = []
        self.stdout_chars = 0
        self.truncation: list[str] = []
        self.series = Series(limits.series_points, self.truncation)
        self.budget = ElementBudget(self)
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
        self.pruning = Pruning(self)
        # The methods of `backward` (passes.py) that stand in for some calls, kept by
        # name and bound when asked for: bound methods held here would make a cycle.
        self.tensor_specials: dict[str, str] = {
            "backward": "tensor_backward",
            "register_hook": "register_hook",
            "retain_grad": "retain_grad",
        }
        self.call_specials: dict[int, str] = {}
        # Where the evaluator is: the nn.Module calls and source loops it is inside.
        # Each loop as (its line, its iteration), outermost first: the loop statements set
        # it once an iteration, and every node made in that iteration shares the tuple.
        self.module_stack: list[str] = []
        self.loops: tuple[tuple[int, int], ...] = ()
        # The tensors the program still holds (its globals), kept whole by pruning.
        self.live_tensors: Callable[[], list[Tensor]] = list
        # Leaves' values and gradients over time (leaves.py); the tensor about to change
        # in place, and the node that stands for it when it is bookkeeping (no node).
        self.ledger = LeafLedger(self)
        self.inplace_target: Tensor | None = None
        self.no_node = TensorRec("", stand_in(torch.empty(0)), None, None, 0)
        self.backward = BackwardPasses(self)

    def close(self) -> None:
        """Drop what the job gave the recorder that leads back to it (`live_tensors`)."""
        self.live_tensors = list

    def bind_specials(self, namespaces: dict[str, Any]) -> None:
        autograd = namespaces["torch.autograd"].members
        self.call_specials = {
            identity(autograd["grad"]): "autograd_grad",
            identity(autograd["backward"]): "autograd_backward",
        }

    # ------------------------------------------------------------------ hooks into the evaluator

    def special_call(self, target: Any) -> Callable[..., Any] | None:
        method = self.call_specials.get(identity(target))
        return None if method is None else getattr(self.backward, method)

    def tensor_special(self, name: str) -> Callable[..., Any] | None:
        method = self.tensor_specials.get(name)
        return None if method is None else getattr(self.backward, method)

    @contextmanager
    def suspended(self) -> Iterator[None]:
        was = self.active
        self.active = False
        try:
            yield
        finally:
            self.active = was

    # ------------------------------------------------------------------ forward recording

    def snapshot(self, t: Tensor) -> Snapshot:
        # Whether its values fit the trace's size budget is decided when the trace is
        # written, once pruning has dropped what will not be sent (serialize.py).
        source = unwrap_dead(t) if transforms.ran else t
        return Snapshot(source, self.full_values, self.preview_values)

    def _current(self, t: Tensor) -> TensorRec | None:
        """The record of `t` as it is now, if there is one."""
        rec = self.by_tensor.get(identity(t))
        if rec is None or rec.tensor is not t or rec.stale:
            return None
        try:  # read directly: this runs several times a node
            same = rec.version == t._version and rec.grad_fn is t.grad_fn
        except RuntimeError:  # an inference tensor's version; a grad_fn torch refuses
            same = rec.version == version_of(t) and rec.grad_fn is grad_fn_of(t)
        return rec if same else None

    def _add_tensor(self, t: Tensor, node: ast.AST | None, label: str | None) -> TensorRec:
        ledger = self.ledger
        if ledger.pending or ledger.grad_seen:
            ledger.flush()
        key = identity(t)
        self.next_id += 1
        rec = TensorRec(f"t{self.next_id}", t, node, label, self.iteration)
        if rec.grad_fn is None and t.requires_grad and key not in self.leaf_order:
            self._new_leaf(t)
        if self.module_stack:
            rec.module = self.module_stack[-1]
        rec.loops = self.loops
        previous = self.by_tensor.get(key)
        if previous is not None and previous.tensor is t:
            rec.name = previous.name
            rec.retains_grad = previous.retains_grad
            rec.previous = previous
        # Only after a transform ran can `t` be torch.func's wrapper of another tensor.
        source = unwrap_dead(t) if transforms.ran else t
        rec.snapshot = Snapshot(source, self.full_values, self.preview_values)
        self.budget.hold(t.numel())
        self.tensors.append(rec)
        self.by_tensor[key] = rec
        versions = self.versions.get(key)
        if versions is None:
            self.versions[key] = [rec]
            self.unfrozen[key] = [rec]
        else:
            versions.append(rec)
            unfrozen = self.unfrozen.get(key)
            if unfrozen is None:
                self.unfrozen[key] = [rec]
            else:
                unfrozen.append(rec)
        self.timeline.append(Forward(rec.id))
        if len(self.tensors) + len(self.functions) > self.pruning.at:
            self.pruning.during_run()
        return rec

    def untracked(self, t: Tensor) -> None:
        """A tensor made while recording is off: it counts toward the budget while alive."""
        n = self.budget.count_untracked(t, self.scale)
        if n:
            self.made += n
            self.budget.check()

    def _new_leaf(self, t: Tensor) -> None:
        """Number the leaves in the order the program makes them (the gradient check's keys)."""
        index = len(self.leaf_order)
        self.leaf_order[identity(t)] = index
        self.leaves.append(t)
        if self.probe is not None:
            self.probe.leaf_made(t, index)

    def adopt_parameters(self, module: nn.Module, node: ast.AST | None, label: str | None) -> None:
        """A Module was just built: its parameters are leaves from this line on."""
        for _, param in module_parameters(module):
            self.result(param, node, label, ())

    def node_of(self, t: Tensor) -> TensorRec:
        """The node of `t` as it is now, recording it (as an input met along the way) if new."""
        if t is self.inplace_target and self.ledger.is_bookkeeping(t):
            return self.no_node
        try:  # made by autograd: no leaf, nor a leaf's `.data` alias (those are detached)
            leaf = None if t.grad_fn is not None else self.ledger.leaf_of(t)
        except RuntimeError:  # a grad_fn torch refuses to give: no autograd op made it
            leaf = self.ledger.leaf_of(t)
        # A leaf is its one node; its `.data` only while that changes in place.
        if leaf is not None and (leaf is t or t is self.inplace_target):
            return self._leaf_node(leaf)
        rec = self._current(t)
        if rec is not None:
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
        ledger = self.ledger
        # One made by an autograd op is no leaf, nor a leaf's `.data` alias (those are
        # detached): most results.
        try:
            made = t.grad_fn is not None
        except RuntimeError:  # a grad_fn torch refuses to give
            made = False
        if not made and ledger.leaf_of(t) is t:
            if identity(t) in ledger.pending:
                ledger.changed(t, node, label)
            return self._leaf_node(t)
        rec = self._current(t)
        if rec is not None:
            return rec
        # Optimizer arithmetic needs no gradient, and comes once some `.grad` is watched.
        if ledger.grad_seen and not t.requires_grad and ledger.made_from_gradients(t, inputs):
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
            frec = self.function_node(gf, node)
            self.by_output[(identity(gf), t.output_nr)] = rec
            edges = self.edges
            edges.setdefault((frec.id, rec.id), "autograd")
            for inp in inputs:
                if not inp.tensor.requires_grad:
                    edges.setdefault((inp.id, frec.id), "input")
            if not frec.saved:
                self.attach_saved(frec, t, inputs)
        else:
            for inp in inputs:
                self.edges.setdefault((inp.id, rec.id), "nograd")
            accumulator = self.leaf_accumulators.get(identity(t))
            if accumulator is not None and accumulator.fn.variable is t:
                # A new version of a leaf (updated in place): its gradient still lands in
                # the same AccumulateGrad, which now fills this version.
                if accumulator.tensor is not None:
                    self.edges.pop((accumulator.tensor.id, accumulator.id), None)
                accumulator.tensor = rec
                self._edge(rec.id, accumulator.id, "autograd")

    def _edge(self, source: str, target: str, kind: str) -> None:
        self.edges.setdefault((source, target), kind)

    def function_node(self, gf: Any, node: ast.AST | None) -> FunctionRec:
        frec = self.by_fn.get(identity(gf))
        if frec is not None and frec.fn is gf:
            return frec
        root = self._add_function(gf, node)
        stack = [root]
        edges = self.edges
        by_output = self.by_output
        by_fn = self.by_fn
        while stack:
            current = stack.pop()
            for nxt, nr in current.fn.next_functions:
                if nxt is None:
                    continue
                key = identity(nxt)
                produced = by_output.get((key, nr))
                if produced is not None and produced.grad_fn is nxt:
                    edges.setdefault((produced.id, current.id), "autograd")
                    continue
                known = by_fn.get(key)
                if known is None or known.fn is not nxt:
                    known = self._add_function(nxt, node)
                    if known.op == "AccumulateGrad":
                        self._attach_leaf(known)
                    else:
                        stack.append(known)
                edges.setdefault((known.id, current.id), "autograd")
        return root

    def _add_function(self, gf: Any, node: ast.AST | None) -> FunctionRec:
        self.next_id += 1
        frec = FunctionRec(f"f{self.next_id}", gf, node, self.iteration)
        if self.module_stack:
            frec.module = self.module_stack[-1]
        frec.loops = self.loops
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

    def attach_saved(self, frec: FunctionRec, out: Tensor, inputs: Any) -> None:
        if frec.saved:
            return
        self.peeking = True
        try:
            saved = saved_of(frec)
        finally:
            self.peeking = False
        frec.saved_read = True
        for name, value in saved:
            entry: dict[str, Any] = {"name": name, "node": None, "value": None}
            match = self._match(value, out, inputs)
            if match is not None:
                entry["node"] = match.id
            else:
                entry["value"] = self.snapshot(value)
            frec.saved.append(entry)

    def _match(self, value: Tensor, out: Tensor, inputs: Any) -> TensorRec | None:
        """The node a saved tensor is: its own, or that of the output or an input whose
        memory it is (most are found by the first lookup)."""
        rec = self._current(value)
        if rec is not None:
            return rec
        if value.numel() == 0:
            return None
        ptr = value.data_ptr()
        for c in (out, *[i.tensor for i in inputs]):
            if c.data_ptr() == ptr and c.shape == value.shape and c.dtype == value.dtype:
                crec = self.by_tensor.get(identity(c))
                if crec is not None and crec.tensor is c:
                    return crec
        return None

    def name(self, t: Any, name: str) -> None:
        # A lazy layer's weight before its first call has no values to record.
        if not self.active or not isinstance(t, Tensor) or isinstance(t, UninitializedTensorMixin):
            return
        if self.ledger.is_bookkeeping(t):
            return
        rec = self._current(t) or self.node_of(t)
        if rec.name is None:
            # A program's key ("\ud800" in a ParameterDict) may hold a lone surrogate,
            # which no UTF-8 writer takes: written as its escape, as stdout is.
            rec.name = clean_text(name)

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
            self.ledger.copy_grads()
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

    def print(self, text: str, args: tuple[Any, ...], line: int | None) -> None:
        self.stdout_chars += len(text)
        if self.stdout_chars > self.limits.output_chars:
            raise LimitError(
                f"the program printed more than {self.limits.output_chars:,} characters"
            )
        self.stdout.append(text)
        self.ledger.flush()
        self.timeline.append(Printed(text, line))
        self.series.from_print(text, args)

    def plotted(self, label: str | None, values: list[Any], length: int, line: int | None) -> None:
        self.series.plotted(label, values, length, line)

    def line(self, node: ast.AST) -> None:
        """The program runs a statement during a backward pass (a hook, a custom backward)."""
        self.backward.steps.line(node)

    def hidden_pass(self, kind: str, node: ast.AST | None, retain: bool, create: bool) -> None:
        """A backward pass torch runs inside a transform (passes.py)."""
        self.backward.hidden_pass(kind, node, retain, create)
