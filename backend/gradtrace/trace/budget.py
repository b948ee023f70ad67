"""The element budget: the elements of the tensors a job holds, recorded or not, bounded by
`Limits.total_elements`. Counted while they are alive: a recorded tensor only the recorder
still holds is let go (its record keeps its snapshot) before the budget says no."""

from __future__ import annotations

import sys
import weakref
from typing import TYPE_CHECKING

import torch

from gradtrace.identity import identity
from gradtrace.language.errors import LimitError
from gradtrace.trace.records import TensorRec, stand_in

if TYPE_CHECKING:
    from gradtrace.trace.recorder import Recorder

Tensor = torch.Tensor


def _untracked_freed(budget: weakref.ReferenceType[ElementBudget], key: int) -> None:
    owner = budget()
    if owner is not None:
        owner.untracked_total -= owner.untracked.pop(key, 0)


class ElementBudget:
    def __init__(self, recorder: Recorder) -> None:
        # Weakly: the recorder owns this (a cycle would outlive the job until a collection).
        self.rec: Recorder = weakref.proxy(recorder)
        self.limit = recorder.limits.total_elements
        # Elements of the tensors the records hold.
        self.held = 0
        # Tensors made while recording is off (a Function's forward, hooks during backward),
        # counted while they live: numel by id, released by a finalizer.
        self.untracked: dict[int, int] = {}
        self.untracked_total = 0

    def hold(self, elements: int) -> None:
        """A record now holds a tensor of `elements` elements."""
        self.held += elements
        if self.held + self.untracked_total > self.limit:
            self.check()

    def check(self) -> None:
        if self.held + self.untracked_total > self.limit:
            self._release_dead()
        if self.held + self.untracked_total > self.limit:
            raise LimitError(f"the program's tensors hold more than {self.limit:,} elements in all")

    def count_untracked(self, t: Tensor, scale: int) -> int:
        """`t`, made while recording is off, counts `scale` times its elements while it
        lives (0: it is counted already)."""
        key = id(t)
        if key in self.untracked:
            return 0
        n = t.numel() * scale
        self.untracked[key] = n
        self.untracked_total += n
        # The finalizer holds the budget weakly: the registry of finalizers lives as long
        # as the process, and the recorder may hold `t` itself (a record of it).
        weakref.finalize(t, _untracked_freed, weakref.ref(self), key)
        return n

    def _release_dead(self) -> None:
        """Let go of the tensors that only the recorder still holds: the budget is about
        what is alive. Their records keep what the trace shows of them (snapshots), with
        a stand-in of the same dtype and device in place of the tensor."""
        held: dict[int, list[TensorRec]] = {}
        for rec in self.rec.tensors:
            if rec.tensor.numel():  # stand-ins are empty
                held.setdefault(identity(rec.tensor), []).append(rec)
        leaves = {identity(t) for t in self.rec.leaves}
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
                rec.tensor = stand_in(t)
            self.held -= t.numel() * len(recs)
