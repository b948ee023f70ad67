"""Backward passes, recorded: `tensor.backward()`, `torch.autograd.backward/grad`, and the
tensor methods that act during one (`register_hook`, `retain_grad`).

The first pass that can reach a Node gives it a post-hook, which records its grad_inputs
and grad_outputs in the order torch's engine really runs them (the gradient that reached
a tensor is the grad_output of the Node that made it). Where the engine's order is not
known from the graph alone (autograd.grad and `inputs=`, which skip Nodes; another device;
a pass nested in another), also a pre-hook, which says the engine entered it; elsewhere
the Node a pass raised in is found from the graph when it raises (`_unfinished`), which
saves each Node of every pass a pre-hook's cost. The hooks stay for later passes: each
pass names the Nodes it can reach (`live`), and a hook whose Node is not among them does
nothing. They hold the passes weakly and their record by a key, so torch, which keeps
them from C++ where the cyclic GC cannot follow, holds nothing of the job through them.
Ours run after the program's own Node hooks (which may change the gradients): when any
hook was registered since our last walk of a pass (torch numbers them all), ours are
registered again at the end. What a pass does beyond moving gradients (the program's
lines it runs, where it raised, the saved tensors it freed) is backward_steps.py's.
"""

from __future__ import annotations

import ast
import functools
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import torch
from torch.utils.hooks import RemovableHandle

from gradtrace.identity import identity
from gradtrace.language import transforms
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.trace.backward_steps import BackwardSteps, running_node
from gradtrace.trace.events import FunctionRan, GradReached
from gradtrace.trace.records import FunctionRec, PassRec, TensorRec, grad_fn_of, unwrap_dead
from gradtrace.trace.tensordata import Snapshot

if TYPE_CHECKING:
    from gradtrace.trace.recorder import Recorder

Tensor = torch.Tensor
# Each backward() called from inside another (from a hook or a custom backward) nests
# through torch's C++ engine on the same stack: a few levels are real uses, more is a bomb.
_MAX_NESTED_PASSES = 4


# The parameters of Tensor.backward, autograd.backward and autograd.grad, in order: a
# call's options are read the same whether given by position or by name.
_TENSOR_BACKWARD = ("gradient", "retain_graph", "create_graph", "inputs")
_AUTOGRAD_BACKWARD = (
    "tensors",
    "grad_tensors",
    "retain_graph",
    "create_graph",
    "grad_variables",
    "inputs",
)
_AUTOGRAD_GRAD = (
    "outputs", "inputs", "grad_outputs", "retain_graph", "create_graph", "only_inputs",
    "allow_unused", "is_grads_batched", "materialize_grads",
)  # fmt: skip


def _options(
    names: tuple[str, ...], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> dict[str, Any]:
    options = dict(zip(names, args))
    options.update(kwargs)
    return options


def _retain(options: dict[str, Any], create: bool) -> bool:
    retain = options.get("retain_graph")
    return create if retain is None else bool(retain)


def _ran(
    passes: weakref.ReferenceType[BackwardPasses], key: int, grad_inputs: Any, grad_outputs: Any
) -> None:
    """The post-hook on the Node of `key` (a partial of this per Node: a closure made its
    function, tuple and two cells for each Node of a long graph)."""
    owner = passes()
    if owner is not None:
        live_rec = owner.live.get(key)
        if live_rec is not None:
            owner.post_hook(live_rec, grad_inputs, grad_outputs)


def _entering(passes: weakref.ReferenceType[BackwardPasses], key: int) -> Any:
    """The pre-hook that tells the passes the engine entered the Node of `key`."""

    def entered(grad_outputs: Any) -> None:
        owner = passes()
        if owner is not None:
            live_rec = owner.live.get(key)
            if live_rec is not None:
                owner.steps.in_flight.append(live_rec)

    return entered


class BackwardPasses:
    """The recorder's backward passes: what stands in for the calls that start one, and
    the gradients each pass moved (its snapshots, the nodes they reached so far)."""

    def __init__(self, recorder: Recorder) -> None:
        # Weakly: the recorder owns this, and a cycle would keep every tensor it recorded
        # alive until the collector runs.
        self.rec: Recorder = weakref.proxy(recorder)
        self.depth = 0
        # Within the pass that runs: each gradient's snapshot by the gradient's identity
        # (and the gradients, so no identity is reused), the nodes a gradient reached,
        # each leaf's gradient event by node id, the AccumulateGrad Nodes whose leaf's
        # `.grad` was None before it.
        self.blobs: dict[int, Snapshot] = {}
        self.refs: list[Tensor] = []
        self.seen: set[str] = set()
        self.leaf_event: dict[str, int] = {}
        self.none_grads: set[str] = set()
        # Inside a pass: the Node running, the program's lines, errors, freed buffers.
        self.steps = BackwardSteps(recorder)
        # The Nodes the pass can reach, by their hooks' key; the last key given. Every hook
        # torch registers from Python takes the next RemovableHandle id: `handles` is the
        # next one after our last walk, and `epoch` counts the walks that found others
        # registered since (ours are registered again after them).
        self.live: dict[int, FunctionRec] = {}
        self.keys = 0
        self.handles = -1
        self.epoch = 0
        # What our hooks hold (torch keeps them from C++): the passes, weakly.
        self.ref = weakref.ref(self)

    # ------------------------------------------------------------------ the calls

    def tensor_backward(
        self, t: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any], node: ast.AST
    ) -> Any:
        options = _options(_TENSOR_BACKWARD, args, kwargs)
        create = bool(options.get("create_graph"))
        retain = _retain(options, create)
        call = lambda: t.backward(*args, **kwargs)  # noqa: E731
        every = options.get("inputs") is None
        return self.run("backward", [t], node, retain, create, call, every)

    def autograd_backward(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], node: ast.AST
    ) -> Any:
        options = _options(_AUTOGRAD_BACKWARD, args, kwargs)
        tensors = options.get("tensors")
        roots = [tensors] if isinstance(tensors, Tensor) else list(tensors or [])
        create = bool(options.get("create_graph"))
        retain = _retain(options, create)
        call = lambda: torch.autograd.backward(*args, **kwargs)  # noqa: E731
        every = options.get("inputs") is None
        return self.run("backward", roots, node, retain, create, call, every)

    def autograd_grad(self, args: tuple[Any, ...], kwargs: dict[str, Any], node: ast.AST) -> Any:
        options = _options(_AUTOGRAD_GRAD, args, kwargs)
        if options.get("is_grads_batched"):
            # torch's older vmap: its batched gradients, kept by the pass's snapshots, have
            # no values of their own once it ends (the trace could not be written).
            raise ForbiddenError(
                "autograd.grad(is_grads_batched=True) is not available: take the "
                "gradients with torch.func.vmap over torch.func.vjp's vjp_fn"
            )
        outputs = options.get("outputs")
        roots = [outputs] if isinstance(outputs, Tensor) else list(outputs or [])
        create = bool(options.get("create_graph"))
        retain = _retain(options, create)
        inputs = options.get("inputs")
        wrt = [inputs] if isinstance(inputs, Tensor) else list(inputs or [])
        rec = self.rec

        def call() -> Any:
            grads = torch.autograd.grad(*args, **kwargs)
            # autograd.grad stops at its inputs (their AccumulateGrad never runs): what
            # arrived there is what it returns.
            for tensor, grad in zip(wrt, grads):
                if isinstance(tensor, Tensor) and isinstance(grad, Tensor):
                    trec = rec.by_tensor.get(identity(tensor))
                    if trec is not None and trec.tensor is tensor and trec.id not in self.seen:
                        self.seen.add(trec.id)
                        rec.timeline.append(
                            GradReached(rec.current_pass, trec.id, self.blob(grad), False)
                        )
            return grads

        grads = self.run("grad", roots, node, retain, create, call, every_node=False)
        if rec.active:
            for g in grads:
                if isinstance(g, Tensor):
                    grec = rec.result(g, node, None, ())
                    if grec is not None:
                        grec.role = "gradient"
        return grads

    def register_hook(
        self, t: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any], node: ast.AST
    ) -> Any:
        hook = args[0] if args else kwargs.get("hook")
        if not callable(hook):
            raise TypeError("register_hook expects a function")
        rec = self.rec.node_of(t) if self.rec.active else None
        if rec is not None:
            rec.hooks += 1
        node_id = rec.id if rec is not None else None
        # torch keeps the hook from C++, where the cyclic GC cannot follow: holding the
        # passes (or a record of `t`) strongly would keep them all alive for good.
        passes = weakref.ref(self)

        def seen_by_hook(grad: Any) -> Any:
            owner = passes()
            if owner is None or not owner.rec.in_backward or node_id is None:
                return hook(grad)
            if isinstance(grad, Tensor) and node_id not in owner.seen:
                owner.seen.add(node_id)
                timeline = owner.rec.timeline
                owner.leaf_event[node_id] = len(timeline)
                timeline.append(
                    GradReached(owner.rec.current_pass, node_id, owner.blob(grad), True)
                )
            # The lines the hook runs are stepped at this tensor.
            outer, owner.steps.hook_node = owner.steps.hook_node, node_id
            try:
                return hook(grad)
            finally:
                owner.steps.hook_node = outer

        return t.register_hook(seen_by_hook)

    def retain_grad(
        self, t: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any], node: ast.AST
    ) -> Any:
        t.retain_grad(*args, **kwargs)
        if self.rec.active:
            self.rec.node_of(t).retains_grad = True
        return None

    # ------------------------------------------------------------------ a pass

    def run(
        self,
        kind: str,
        roots: list[Any],
        node: ast.AST,
        retain: bool,
        create: bool,
        call: Callable[[], Any],
        every_node: bool,
    ) -> Any:
        """`every_node`: the engine runs every Node it can reach from the roots (no
        `inputs` to stop at)."""
        if self.depth >= _MAX_NESTED_PASSES:
            raise LimitError(
                f"backward passes nested {_MAX_NESTED_PASSES} deep (a hook or a custom backward "
                "that calls backward() again?)"
            )
        self.depth += 1
        try:
            if not self.rec.active:
                return call()
            return self._recorded(kind, roots, node, retain, create, call, every_node)
        finally:
            self.depth -= 1

    def _recorded(
        self,
        kind: str,
        roots: list[Any],
        node: ast.AST,
        retain: bool,
        create: bool,
        call: Callable[[], Any],
        every_node: bool,
    ) -> Any:
        rec = self.rec
        rec.ledger.flush()
        root_recs = [rec.node_of(r) for r in roots if isinstance(r, Tensor)]
        if rec.probe is not None and root_recs:
            rec.probe.backward_began(root_recs[0].tensor)
        for root_rec in root_recs:
            if root_rec.role == "intermediate":
                root_rec.role = "output"
        root = root_recs[0] if root_recs else None
        line = getattr(node, "lineno", 0)
        index = len(rec.passes)
        rec.passes.append(PassRec(index, root, line, retain, kind, create))
        if root is not None and root.tensor.numel() == 1:
            rec.series.add(root.name or "loss", root.tensor.detach().item())
        # The engine takes the Nodes of one device's pass in an order the graph decides:
        # where that holds, the Node it raised in is found when it raises.
        entering = (
            not every_node
            or self.depth > 1
            or running_node is None
            or any(r.tensor.device.type != "cpu" for r in root_recs)
        )
        try:
            self._watch_nodes(root_recs, node, not retain, entering)
        except BaseException:
            self.live.clear()
            raise
        rec.current_pass = index
        rec.in_backward = True
        rec.stepping = True
        rec.active = False
        try:
            return call()
        except Exception as exc:
            self.steps.failed(index, exc, self._unfinished)
            raise
        finally:
            self.live.clear()
            self.steps.ended(index, retain)
            rec.in_backward = False
            rec.stepping = False
            rec.active = True
            self.clear()
            rec.iteration += 1

    def _watch_nodes(
        self, root_recs: list[TensorRec], node: ast.AST, freeing: bool, entering: bool
    ) -> None:
        """Every Node the pass can reach from its roots, live for the pass and hooked
        (`freeing`: the pass runs without retain_graph, and notes what holds values;
        `entering`: each Node also says when the engine enters it)."""
        rec = self.rec
        seen: set[int] = set()
        stack = [gf for gf in (grad_fn_of(r.tensor) for r in root_recs) if gf is not None]
        if not stack:
            for r in root_recs:
                accumulate = self._accumulator_of(r)
                if accumulate is not None:
                    stack.append(accumulate)
        by_fn = rec.by_fn
        live = self.live
        none_grads = self.none_grads
        note_holding = self.steps.note_holding
        if RemovableHandle.next_id != self.handles:
            self.epoch += 1
        epoch = self.epoch
        passes = self.ref
        while stack:
            fn = stack.pop()
            key = identity(fn)
            if key in seen:
                continue
            seen.add(key)
            frec = by_fn.get(key)
            if frec is None or frec.fn is not fn:
                frec = rec.function_node(fn, node)
            if frec.hooked_at == -1 and not entering:
                # Hooked for the first time, as most Nodes are (_hook's first case, inline).
                self.keys += 1
                frec.hook_key = key = self.keys
                fn.register_hook(functools.partial(_ran, passes, key))
                frec.hooked_at = epoch
            elif frec.hooked_at != epoch or (entering and not frec.prehooked):
                self._hook(fn, frec, entering)
            live[frec.hook_key] = frec
            if frec.tensor is not None:  # an AccumulateGrad (it saves nothing)
                if fn.variable.grad is None:
                    none_grads.add(frec.id)
            elif freeing and (frec.custom or not frec.saved_read):
                # Those read when made hold their saved tensors until a pass runs them.
                note_holding(fn, frec)
            for nxt, _ in fn.next_functions:
                if nxt is not None and identity(nxt) not in seen:
                    stack.append(nxt)
        self.handles = RemovableHandle.next_id

    def _hook(self, fn: Any, frec: FunctionRec, entering: bool) -> None:
        """Our post-hook (and pre-hook, `entering`) on Node `fn`, after any of the program's.

        Each time under a new key. The first hooks' handles are not kept (most Nodes are
        hooked once, and a handle per Node cost more than the rest of its hooking): hooked
        again, a Node keeps them and removes them the time after, so that at most one set
        of hooks of before stays with torch, looking up a key no longer live."""
        for handle in frec.hook_handles:
            handle.remove()
        again = frec.hooked_at != -1
        self.keys += 1
        frec.hook_key = key = self.keys
        passes = self.ref
        handles: tuple[Any, ...] = (fn.register_hook(functools.partial(_ran, passes, key)),)
        if entering:
            handles += (fn.register_prehook(_entering(passes, key)),)
        frec.hook_handles = handles if again else ()
        frec.prehooked = entering
        frec.hooked_at = self.epoch

    def _unfinished(self) -> FunctionRec | None:
        """The Node the pass raised in, where no pre-hook says: one the program's code ran
        in (a hook, a custom backward) that never finished; else the one torch's engine
        took next from its ready queue, which it orders by sequence number, highest first,
        among the Nodes whose every input within the pass has run (nothing ran since)."""
        steps = self.steps
        done = {f.id for f in steps.ran}
        running = steps.running
        if running is not None and running.id not in done and running.hook_key in self.live:
            return running
        nodes = {identity(f.fn): f for f in self.live.values()}
        waiting = dict.fromkeys(nodes, 0)
        for f in nodes.values():
            if f.id in done:
                continue
            for nxt, _ in f.fn.next_functions:
                key = identity(nxt)
                if nxt is not None and key in waiting:
                    waiting[key] += 1
        ready = [f for key, f in nodes.items() if f.id not in done and not waiting[key]]
        return max(
            ready, key=lambda f: -1 if f.sequence_nr is None else f.sequence_nr, default=None
        )

    def clear(self) -> None:
        """The pass ended: let go of its gradients and what they reached."""
        self.blobs.clear()
        self.refs.clear()
        self.seen.clear()
        self.leaf_event.clear()
        self.none_grads.clear()

    def hidden_pass(self, kind: str, node: ast.AST | None, retain: bool, create: bool) -> None:
        """A backward pass torch runs inside a transform (torch.func, autograd.functional)
        over the transform's own tensors: recorded as a pass at the line that ran it, with
        no gradients shown (those tensors live only as long as the transform)."""
        rec = self.rec
        line = getattr(node, "lineno", 0)
        rec.passes.append(PassRec(len(rec.passes), None, line, retain, kind, create))
        rec.iteration += 1

    def _accumulator_of(self, trec: TensorRec) -> Any:
        frec = self.rec.leaf_accumulators.get(identity(trec.tensor))
        return frec.fn if frec is not None and frec.fn.variable is trec.tensor else None

    def blob(self, g: Tensor) -> Snapshot:
        """The snapshot of gradient `g`, one per gradient within a pass."""
        key = identity(g)
        snap = self.blobs.get(key)
        if snap is None:
            # The recorder's snapshot(), inline (a frame per gradient): only after a
            # transform ran can `g` be torch.func's wrapper of another tensor.
            rec = self.rec
            snap = Snapshot(
                unwrap_dead(g) if transforms.ran else g, rec.full_values, rec.preview_values
            )
            self.blobs[key] = snap
            self.refs.append(g)  # keeps its identity key from being reused within the pass
        return snap

    def post_hook(self, frec: FunctionRec, grad_inputs: Any, grad_outputs: Any) -> None:
        """Node `frec` ran: its gradients in and out, and the tensors they reached."""
        rec = self.rec
        p = rec.current_pass
        timeline = rec.timeline
        steps = self.steps
        # The engine left `frec` (entered in its pre-hook).
        in_flight = steps.in_flight
        if in_flight:
            if in_flight[-1] is frec:
                in_flight.pop()
            elif frec in in_flight:
                in_flight.remove(frec)
        steps.ran.append(frec)
        # Most gradients a Node receives are ones an earlier Node of the pass sent: their
        # snapshots are looked up before blob() is called for a new one.
        known = self.blobs.get
        blob = self.blob
        outs = [
            (known(identity(g)) or blob(g)) if isinstance(g, Tensor) else None for g in grad_outputs
        ]
        ins = [blob(g) if isinstance(g, Tensor) else None for g in grad_inputs]
        if frec.tensor is not None:
            # AccumulateGrad may have adopted this very tensor as `.grad`, which later
            # passes or zero_() change in place: copy it now.
            for snap in outs:
                if snap is not None:
                    snap.freeze()
            timeline.append(FunctionRan(p, frec.id, ins, outs))
            leaf = frec.tensor
            total = rec.ledger.accumulated(frec.fn.variable, frec.id in self.none_grads)
            if outs and outs[0] is not None and leaf.id not in self.seen:
                self.seen.add(leaf.id)
                timeline.append(GradReached(p, leaf.id, outs[0], False, total))
            elif leaf.id in self.leaf_event:
                # A hook saw the gradient first: its event shows the sum it led to.
                event = timeline[self.leaf_event[leaf.id]]
                assert isinstance(event, GradReached)
                event.accumulated = total
            return
        fid = identity(frec.fn)
        by_output = rec.by_output
        seen = self.seen
        for k, snap in enumerate(outs):
            if snap is None:
                continue
            trec = by_output.get((fid, k))
            if trec is not None and trec.id not in seen:
                seen.add(trec.id)
                timeline.append(GradReached(p, trec.id, snap, False))
        timeline.append(FunctionRan(p, frec.id, ins, outs))
