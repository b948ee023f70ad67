"""Record the autograd graph of a tensor the user computed in their own process.

`capture(loss)` walks `loss.grad_fn` with the engine's own recorder, then (with
`backward=True`) runs `torch.autograd.grad(..., retain_graph=True)` with one post-hook
per Node. `autograd.grad` leaves every `.grad` alone and the graph alive; every hook is
removed before capture returns.

`autograd.grad` never runs the AccumulateGrad Nodes (that is what keeps `.grad`
untouched), so their events are placed where a real `backward()` runs them: right after
the last Node feeding them, since the engine's ready queue gives AccumulateGrad the
highest priority. They carry the gradient `autograd.grad` returned for the leaf.
"""

from __future__ import annotations

import functools
import gc
import time
import weakref
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import torch
from torch import nn
from torch._C._autograd import _get_sequence_nr

from gradtrace.identity import identity
from gradtrace.language.limits import Limits
from gradtrace.trace.events import Event, Forward, FunctionRan, GradReached
from gradtrace.trace.models import Trace
from gradtrace.trace.objects import collector_paused
from gradtrace.trace.recorder import Recorder
from gradtrace.trace.records import FunctionRec, PassRec, TensorRec
from gradtrace.trace.serialize import trace_model
from gradtrace.version import __version__

Tensor = torch.Tensor
Params = Mapping[str, Tensor] | nn.Module

#: Where `track_modules` writes a Node's module, in torch's own per-Node metadata dict.
MODULE_KEY = "gradtrace.module"

# The user's model is theirs to size: no element or node budget beyond memory. The trace
# size budget stays, so a large model gives stats and previews rather than a huge page.
_LIMITS = Limits(total_elements=2**62, tensor_elements=2**62, graph_nodes=10_000_000)


class _GradPass:
    """One recorded `torch.autograd.grad` pass over the recorder's graph, with leaf events
    placed as the engine would run them (through the recorder's public pass interface)."""

    def __init__(self, rec: Recorder) -> None:
        self.rec = rec
        self.pending: dict[int, int] = {}  # identity(AccumulateGrad) -> Nodes still to run
        self.accumulators: dict[int, list[int]] = {}  # identity(Node) -> AccumulateGrads it feeds
        # Where each AccumulateGrad's turn came: (timeline position, its identity).
        self.ready: list[tuple[int, int]] = []

    def post_hook(self, frec: FunctionRec, grad_inputs: Any, grad_outputs: Any) -> None:
        self.rec.backward.post_hook(frec, grad_inputs, grad_outputs)
        for acc in self.accumulators.get(identity(frec.fn), ()):
            self.pending[acc] -= 1
            if self.pending[acc] == 0:
                self.ready.append((len(self.rec.timeline), acc))

    def run(self, root: TensorRec, grad_output: Tensor | None) -> None:
        """One recorded `torch.autograd.grad` pass from `root` to every leaf."""
        rec = self.rec
        rec.passes.append(PassRec(0, root, 0, True, "grad", False))
        rec.current_pass = 0
        nodes = [f for f in rec.functions if f.tensor is None]
        leaves = [f for f in rec.functions if f.tensor is not None]
        for f in nodes:
            feeds = [
                identity(n)
                for n, _ in f.fn.next_functions
                if n is not None and identity(n) in rec.by_fn
            ]
            feeds = [a for a in feeds if rec.by_fn[a].tensor is not None]
            self.accumulators[identity(f.fn)] = feeds
            for acc in feeds:
                self.pending[acc] = self.pending.get(acc, 0) + 1
        retained = _retained({identity(f.fn) for f in nodes})
        handles = [f.fn.register_hook(functools.partial(self.post_hook, f)) for f in nodes]
        try:
            grads = _grad(root.tensor, [f.tensor.tensor for f in leaves if f.tensor], grad_output)
        finally:
            for handle in handles:
                handle.remove()
            for tensor, grad in retained:
                tensor.grad = grad
        by_acc = {identity(f.fn): (f, g) for f, g in zip(leaves, grads)}
        self._place_leaf_events(by_acc)
        rec.backward.clear()

    def _place_leaf_events(self, by_acc: dict[int, tuple[FunctionRec, Tensor | None]]) -> None:
        rec = self.rec
        marked = {acc for _, acc in self.ready}
        # An AccumulateGrad whose feeders did not all run still got its gradient: last.
        end = len(rec.timeline)
        turns = [*self.ready, *((end, acc) for acc in by_acc if acc not in marked)]
        at: dict[int, list[int]] = {}
        for position, acc in turns:
            at.setdefault(position, []).append(acc)
        timeline: list[Event] = []
        for position in range(end + 1):
            for acc in at.get(position, ()):
                frec, grad = by_acc[acc]
                if grad is None or frec.tensor is None:
                    continue
                snap = rec.backward.blob(grad)
                timeline.append(FunctionRan(0, frec.id, [], [snap]))
                timeline.append(GradReached(0, frec.tensor.id, snap, False))
            if position < end:
                timeline.append(rec.timeline[position])
        rec.timeline = timeline


# Tensors that called retain_grad(), by id, held weakly (a WeakSet would compare tensors
# with their elementwise ==). Filled by one scan of the heap at the first capture, then
# by Tensor.retain_grad itself: later captures cost what their graph costs, not the heap.
_retaining: weakref.WeakValueDictionary[int, Tensor] | None = None


def _watch_retain_grad() -> weakref.WeakValueDictionary[int, Tensor]:
    global _retaining
    if _retaining is None:
        retaining: weakref.WeakValueDictionary[int, Tensor] = weakref.WeakValueDictionary()
        for obj in gc.get_objects():
            # type(), not isinstance(): some lazy modules warn when asked for __class__.
            if issubclass(type(obj), Tensor) and obj.retains_grad:
                retaining[id(obj)] = obj
        original = Tensor.retain_grad

        @functools.wraps(original)
        def retain_grad(self: Tensor) -> None:
            original(self)
            if self.retains_grad:
                retaining[id(self)] = self

        Tensor.retain_grad = retain_grad  # type: ignore[method-assign,assignment]
        _retaining = retaining
    return _retaining


def _retained(fns: set[int]) -> list[tuple[Tensor, Tensor | None]]:
    """Each tensor of this graph that called `retain_grad()`, with its `.grad` now.

    `autograd.grad` fills `.grad` on those (never on leaves), and the graph does not lead
    to them: they are the tensors that asked, and their `.grad` is put back after.
    """
    return [
        (tensor, tensor.grad)
        for tensor in list(_watch_retain_grad().values())
        if tensor.retains_grad and identity(tensor.grad_fn) in fns
    ]


def _grad(root: Tensor, leaves: list[Tensor], grad_output: Tensor | None) -> list[Tensor | None]:
    if not leaves:
        return []
    if grad_output is None and root.numel() != 1:
        # What `root.sum().backward()` would send: ones, the shape of the output.
        grad_output = torch.ones_like(root)
    try:
        grads = torch.autograd.grad(
            root, leaves, grad_outputs=grad_output, retain_graph=True, allow_unused=True
        )
    except RuntimeError as error:
        if "second time" not in str(error):
            raise
        raise RuntimeError(
            "a backward() already freed this graph's saved tensors: capture before calling "
            "backward(), call it with retain_graph=True, or capture with backward=False"
        ) from error
    return list(grads)


def _names(params: Params | None) -> dict[int, tuple[str, Tensor]]:
    if params is None:
        return {}
    items = params.named_parameters() if isinstance(params, nn.Module) else params.items()
    return {identity(t): (name, t) for name, t in items if isinstance(t, Tensor)}


def _module_of_name(name: str) -> str | None:
    module, _, _ = name.rpartition(".")
    return module or None


def capture(
    output: Tensor,
    *,
    backward: bool = True,
    params: Params | None = None,
    grad_output: Tensor | None = None,
) -> Trace:
    """The autograd graph of `output`, with values and, with `backward`, every gradient.

    `params` (`dict(model.named_parameters())`, or the model itself) names the leaves and
    groups them by module; run the forward inside `track_modules(model)` to group every
    Node by the module whose forward made it. A non-scalar `output` is sent ones (as
    `output.sum()` would), unless `grad_output` says otherwise. The user's `.grad`
    attributes, graph and hooks are as they were when this returns.
    """
    if not isinstance(output, Tensor):
        raise TypeError(f"capture expects a torch.Tensor, not {type(output).__name__}")
    if not output.requires_grad:
        raise ValueError(
            "this tensor has no autograd graph: nothing it came from requires grad "
            "(make a leaf with requires_grad=True; check for torch.no_grad() or .detach())"
        )
    with collector_paused():
        return _capture(output, backward, params, grad_output)


def _capture(
    output: Tensor, backward: bool, params: Params | None, grad_output: Tensor | None
) -> Trace:
    started = time.perf_counter()
    rec = Recorder(_LIMITS)
    root = rec.node_of(output)
    root.role = "output"
    leaf_recs = [f.tensor for f in rec.functions if f.tensor is not None]
    for frec in rec.functions:
        if frec.tensor is None:
            rec.attach_saved(frec, output, leaf_recs)
    names = _names(params)
    variables: dict[str, TensorRec] = {}
    for trec in rec.tensors:
        named = names.get(identity(trec.tensor))
        if named is not None and named[1] is trec.tensor:
            trec.name = named[0]
            variables[named[0]] = trec
    _set_modules(rec)
    # The output is made last: its forward event goes after the leaves that feed it.
    rec.timeline.remove(Forward(root.id))
    rec.timeline.append(Forward(root.id))
    if backward:
        _GradPass(rec).run(root, grad_output)
    # Built as objects from the writer's dict (trace/objects.py), never as JSON read back.
    return trace_model(
        rec,
        relative_sequence=False,  # the user's own process: torch's numbers, as fn._sequence_nr() gives
        ok=True,
        error=None,
        device=str(output.device),
        names=variables,
        warnings_seen=[],
        seed=torch.initial_seed(),
        version=__version__,
        elapsed_ms=round((time.perf_counter() - started) * 1000, 3),
    )


def _set_modules(rec: Recorder) -> None:
    for frec in rec.functions:
        if frec.tensor is not None:
            # A leaf belongs to the module its parameter name says ("fc1.weight": "fc1").
            leaf = frec.tensor
            leaf.module = frec.module = _module_of_name(leaf.name) if leaf.name else None
        else:
            frec.module = _metadata(frec.fn).get(MODULE_KEY)


@contextmanager
def track_modules(model: nn.Module) -> Iterator[nn.Module]:
    """Tag every autograd Node made inside a submodule's forward with that module's name.

    Sequence numbers are handed out in the order Nodes are made, so the Nodes a module
    made are those between the numbers before and after its forward; inner modules end
    first and keep their own name. The tags live in each Node's `metadata` (torch's place
    for them); the forward hooks are removed on exit.
    """
    starts: dict[int, list[int]] = {}
    handles = []
    for name, module in model.named_modules():
        if not name:
            continue  # the model's own ops stay ungrouped: groups are its parts
        handles.append(module.register_forward_pre_hook(functools.partial(_enter, starts)))
        handles.append(module.register_forward_hook(functools.partial(_leave, starts, name)))
    try:
        yield model
    finally:
        for handle in handles:
            handle.remove()


def _enter(starts: dict[int, list[int]], module: nn.Module, args: Any) -> None:
    starts.setdefault(identity(module), []).append(_get_sequence_nr())


def _leave(
    starts: dict[int, list[int]], name: str, module: nn.Module, args: Any, result: Any
) -> None:
    start = starts[identity(module)].pop()
    end = _get_sequence_nr()
    stack = [t.grad_fn for t in _tensors(result) if t.grad_fn is not None]
    seen: set[int] = set()
    while stack:
        fn = stack.pop()
        if identity(fn) in seen:
            continue
        seen.add(identity(fn))
        seq = fn._sequence_nr()
        if not start <= seq < end:
            continue  # made before this forward began (or an AccumulateGrad)
        _metadata(fn).setdefault(MODULE_KEY, name)
        stack.extend(n for n, _ in fn.next_functions if n is not None)


def _metadata(fn: Any) -> dict[str, Any]:
    meta: dict[str, Any] = fn.metadata  # a dict on C++ Nodes (torch's stubs say a method)
    return meta


def _tensors(value: Any) -> Iterator[Tensor]:
    if isinstance(value, Tensor):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _tensors(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _tensors(item)
