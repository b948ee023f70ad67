"""The life of each leaf that requires grad, beyond the graph: its values and its `.grad`.

A parameter is one node for the whole program. What happens to it outside autograd is
recorded as `update` events on that node, at the step where it happens:

- its values change in place where autograd does not record it (`optimizer.step()`,
  `w.data -= lr * w.grad`, `with torch.no_grad(): w -= ...`): `what="value"`, with the
  new values and the `.grad` the update read;
- its `.grad` changes outside a backward pass (`zero_()`, `= None`, `zero_grad()`):
  `what="grad"`, with the new `.grad` (None when it was set to None).

During a backward pass the `.grad` a leaf holds after its AccumulateGrad ran (the running
sum) is recorded on that pass's gradient event (`accumulated`).

The arithmetic of such updates (`lr * w.grad`, `w.grad.data`) is bookkeeping, not graph:
a tensor that needs no gradient made only from leaves' gradients is not a node.
"""

from __future__ import annotations

import ast
import weakref
from typing import TYPE_CHECKING, Any

import torch

from gradtrace.identity import identity
from gradtrace.trace.events import Updated
from gradtrace.trace.records import version_of
from gradtrace.trace.tensordata import Snapshot

if TYPE_CHECKING:
    from gradtrace.trace.recorder import Recorder
    from gradtrace.trace.records import TensorRec

Tensor = torch.Tensor

# Values compared element by element to tell whether `.grad` changed behind a `.data` alias
# (whose in-place changes leave the gradient's own version counter as it was).
_COMPARE_LIMIT = 65_536


def _grad_of(t: Tensor) -> Tensor | None:
    g = t.grad
    return g if isinstance(g, Tensor) else None


def _fingerprint(t: Tensor) -> tuple[int, int, Tensor | None]:
    small = t.detach().clone() if t.numel() <= _COMPARE_LIMIT else None
    return (t._version, t.data_ptr(), small)


def _same(seen: tuple[int, int, Tensor | None], t: Tensor) -> bool:
    version, ptr, small = seen
    if version != t._version or ptr != t.data_ptr():
        return False
    return small is None or (small.shape == t.shape and torch.equal(small, t.detach()))


class LeafLedger:
    """Per leaf (by identity): pending value updates and the last `.grad` reported."""

    def __init__(self, recorder: Recorder) -> None:
        # Weakly: the recorder owns this, and a cycle would keep every tensor it recorded
        # alive after the job until the cyclic GC found it.
        self.rec: Recorder = weakref.proxy(recorder)
        # Leaves about to change in place, with the source node that changes them.
        self.pending: dict[int, tuple[Tensor, ast.AST | None]] = {}
        # Leaves whose `.grad` is watched: (grad identity, its version, a small copy once
        # one is needed).
        self.grad_seen: dict[int, tuple[Tensor, int, int, Tensor | None]] = {}
        # Tensors made only from gradients (not graph nodes), by identity.
        self.bookkeeping: dict[int, weakref.ReferenceType[Tensor]] = {}
        # Something changed in place behind an alias: compare gradients by value.
        self.dirty = False
        # Where the gradients are being changed, if the evaluator knows (zero_grad).
        self.grad_node: ast.AST | None = None
        # A tensor sharing a leaf's storage that is about to change in place (`w.data -= u`
        # reads `w.data` afresh), with that leaf: valid for that one change.
        self.storage_alias: tuple[Tensor, Tensor] | None = None
        # Backward passes followed by an update of the parameters (training steps).
        self.training_steps = 0
        self.last_trained_pass = -1
        # The nodes of leaves whose values an update changed.
        self.updated: set[str] = set()
        # Each leaf's values as last recorded: version, storage and a small copy.
        self.values_seen: dict[int, tuple[int, int, Tensor | None]] = {}

    # ------------------------------------------------------------------ which tensors

    def leaf_of(self, t: Tensor) -> Tensor | None:
        """The tracked leaf `t` is, or whose `.data` alias it is; else None."""
        rec = self.rec
        key = identity(t)
        pair = rec.aliases.get(key)
        if pair is not None and pair[0] is t:
            t = pair[1]
            key = identity(t)
        elif self.storage_alias is not None and self.storage_alias[0] is t:
            t = self.storage_alias[1]
            key = identity(t)
        if key not in rec.leaf_order:
            return None
        leaf_rec = rec.by_tensor.get(key)
        if leaf_rec is None or leaf_rec.tensor is not t or leaf_rec.grad_fn is not None:
            return None
        return t

    def storage_of(self, t: Tensor) -> Tensor | None:
        """The tracked leaf whose storage `t` is, all of it (`w.data` read by `w.data -= u`),
        taken as its alias for the in-place change about to happen."""
        self.storage_alias = None
        if t.requires_grad or t.numel() == 0 or t.is_inference():
            return None
        ptr = t.data_ptr()
        for leaf in self.rec.leaves:
            same = leaf.data_ptr() == ptr and leaf.shape == t.shape and leaf.dtype == t.dtype
            if same and self.leaf_of(leaf) is leaf:
                self.storage_alias = (t, leaf)
                return leaf
        return None

    def is_bookkeeping(self, t: Tensor) -> bool:
        """A leaf's `.grad`, its `.data`, or a tensor made only from those."""
        key = identity(t)
        ref = self.bookkeeping.get(key)
        if ref is not None and ref() is t:
            return True
        if not self.grad_seen:
            return False
        pair = self.rec.aliases.get(key)
        if pair is not None and pair[0] is t:
            t = pair[1]
        return any(seen[0].grad is t for seen in self.grad_seen.values())

    def made_from_gradients(self, t: Tensor, inputs: tuple[Any, ...]) -> bool:
        """`t`, made from `inputs`, is optimizer arithmetic: remember it as such. Asked (by
        Recorder.result) only of a tensor that needs no gradient, once some `.grad` is
        watched: optimizer arithmetic is nothing else."""
        tensors = [x for x in inputs if isinstance(x, Tensor) and x is not t]
        if not tensors or not all(self.is_bookkeeping(x) for x in tensors):
            return False
        self.bookkeeping[identity(t)] = weakref.ref(t)
        return True

    # ------------------------------------------------------------------ value updates

    def will_change(self, leaf: Tensor, node: ast.AST | None) -> None:
        """`leaf` is about to change in place: keep the values its node shows so far."""
        key = identity(leaf)
        for older in self.rec.unfrozen.pop(key, ()):
            if older.snapshot is not None:
                older.snapshot.freeze()
        if key not in self.pending or node is not None:
            self.pending[key] = (leaf, node)
        if key not in self.values_seen:
            self.values_seen[key] = _fingerprint(leaf)

    def changed(self, leaf: Tensor, node: ast.AST | None, label: str | None) -> None:
        """`leaf` changed in place (the evaluator saw it): record the update now, if its
        values did change (`requires_grad_()` is an in-place method too)."""
        key = identity(leaf)
        _, was = self.pending.pop(key, (leaf, None))
        self.storage_alias = None
        seen = self.values_seen.get(key)
        if seen is not None and seen[2] is not None and _same(seen, leaf):
            return
        self._update(leaf, node or was, label)

    def flush(self) -> None:
        """Before the next event: the updates torch made (an optimizer step), and
        gradients changed outside a backward pass."""
        rec = self.rec
        if self.pending:
            pending, self.pending = self.pending, {}
            for leaf, node in pending.values():
                seen = self.values_seen.get(identity(leaf))
                if seen is None or not _same(seen, leaf):
                    self._update(leaf, node, None)
        if self.grad_seen and not rec.in_backward:
            self._poll_grads(None)

    def resync(self, leaf_rec: TensorRec, leaf: Tensor) -> None:
        """torch changed a leaf in place where the evaluator did not see it coming."""
        self._update(leaf, None, None)

    def _update(self, leaf: Tensor, node: ast.AST | None, label: str | None) -> None:
        rec = self.rec
        leaf_rec = rec.by_tensor.get(identity(leaf))
        if leaf_rec is None or leaf_rec.tensor is not leaf:
            return
        leaf_rec.version = version_of(leaf)
        leaf_rec.stale = False
        self.updated.add(leaf_rec.id)
        last = len(rec.passes) - 1
        if last > self.last_trained_pass and rec.passes[last].kind == "backward":
            self.last_trained_pass = last
            self.training_steps += 1
        self.values_seen[identity(leaf)] = _fingerprint(leaf)
        value = self._frozen(leaf)
        grad = _grad_of(leaf)
        grad_snap = self._frozen(grad) if grad is not None else None
        line = getattr(node, "lineno", None)
        rec.timeline.append(
            Updated(rec.iteration, leaf_rec.id, "value", value, grad_snap, line, label)
        )

    def _frozen(self, t: Tensor) -> Snapshot:
        snap = self.rec.snapshot(t)
        snap.freeze()
        return snap

    # ------------------------------------------------------------------ gradients

    def accumulated(self, leaf: Tensor, was_none: bool) -> Snapshot | None:
        """After AccumulateGrad ran for `leaf`: its `.grad` now, watched from here on;
        None when `.grad` was None before (it is then the gradient that arrived, which
        the event already carries)."""
        # _grad_of and _remember, inline: this runs for every leaf of every pass.
        grad = leaf.grad
        if not isinstance(grad, Tensor):
            self.grad_seen[identity(leaf)] = (leaf, 0, -1, None)
            return None
        self.grad_seen[identity(leaf)] = (leaf, identity(grad), grad._version, None)
        return None if was_none else self._frozen(grad)

    def _remember(self, leaf: Tensor, grad: Tensor | None) -> None:
        # No copy of the values yet: one is taken only before something changes a gradient
        # behind an alias (copy_grads), which few programs do; copying each leaf's `.grad`
        # after every pass cost 2 % of the 64-wide MLP's job at 250 layers.
        grad_key = 0 if grad is None else identity(grad)
        version = -1 if grad is None else grad._version
        self.grad_seen[identity(leaf)] = (leaf, grad_key, version, None)

    def copy_grads(self) -> None:
        """A gradient is about to change in place behind a `.data` alias, which leaves its
        version counter as it was: keep the values of each watched `.grad` that is as last
        reported, to tell by value afterwards what changed."""
        for key, (leaf, grad_key, version, small) in list(self.grad_seen.items()):
            if small is not None or grad_key == 0:
                continue
            grad = _grad_of(leaf)
            if (
                grad is not None
                and identity(grad) == grad_key
                and grad._version == version
                and grad.numel() <= _COMPARE_LIMIT
            ):
                self.grad_seen[key] = (leaf, grad_key, version, grad.detach().clone())

    def _poll_grads(self, node: ast.AST | None) -> None:
        rec = self.rec
        dirty, self.dirty = self.dirty, False
        node, self.grad_node = node or self.grad_node, None
        for leaf, grad_key, version, small in list(self.grad_seen.values()):
            grad = _grad_of(leaf)
            if grad is None:
                if grad_key == 0:
                    continue
            elif identity(grad) == grad_key and grad._version == version:
                if not dirty or small is None or small.shape != grad.shape:
                    continue
                if torch.equal(small, grad.detach()):
                    continue
            leaf_rec = rec.by_tensor.get(identity(leaf))
            if leaf_rec is None or leaf_rec.tensor is not leaf:
                continue
            self._remember(leaf, grad)
            snap = self._frozen(grad) if grad is not None else None
            line = getattr(node, "lineno", None)
            rec.timeline.append(Updated(rec.iteration, leaf_rec.id, "grad", snap, None, line, None))

    def grads_changed(self, node: ast.AST | None) -> None:
        """The evaluator changed a gradient in place (`w.grad.zero_()`): report it now."""
        self.dirty = True
        if not self.rec.in_backward:
            self._poll_grads(node)
