"""Pruning: a long run keeps the graph of some iterations (and whatever feeds them) and
drops the rest, during the run when the graph grows and once more at the end. An
iteration is one backward pass and the forward before it; the series keep every one."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

from gradtrace.identity import identity
from gradtrace.language.errors import LimitError
from gradtrace.trace.events import Freed

if TYPE_CHECKING:
    from gradtrace.trace.recorder import Recorder


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


class Pruning:
    """Which iterations the trace keeps: each prune narrows it; `focus` is the one asked for."""

    def __init__(self, recorder: Recorder) -> None:
        # Weakly: the recorder owns this (a cycle would outlive the job until a collection).
        self.rec: Recorder = weakref.proxy(recorder)
        self.limits = recorder.limits
        self.kept: list[Callable[[int], bool]] = []
        self.focus: int | None = None
        # The graph's size (tensors and functions) at which the recorder next prunes.
        self.at = max(self.limits.graph_nodes // 4, 256)

    def keeps(self, iteration: int) -> bool:
        return all(wanted(iteration) for wanted in self.kept)

    def during_run(self) -> None:
        """The graph reached `at` nodes: keep the recent iterations and the focused one."""
        rec = self.rec
        if rec.iteration > self.limits.full_passes:
            recent = rec.iteration - self.limits.kept_iterations + 1
            focus = self.focus
            self.prune(lambda i: i >= recent or i == focus)
        total = len(rec.tensors) + len(rec.functions)
        if total > self.limits.graph_nodes:
            raise LimitError(f"the graph grew past {self.limits.graph_nodes:,} nodes")
        self.at = max(self.at, total * 2)

    def finish(self) -> None:
        """At the end: the focused iteration, or the last ones, in full."""
        rec = self.rec
        last = len(rec.passes)
        focus = self.focus
        if focus is not None and last:
            focus = min(max(focus, 0), last - 1)
            self.prune(lambda i: i == focus, keep_live=False)
        elif last > self.limits.full_passes:
            recent = last - self.limits.kept_iterations + 1
            self.prune(lambda i: i >= recent)
        dropped = [i for i in range(last + 1) if not self.keeps(i)]
        if dropped:
            rec.truncation.append(
                f"iterations {_ranges(dropped)} of {last}: their graphs and backward passes were "
                "dropped (request one with `iteration`); the series keep every iteration"
            )

    def prune(self, wanted: Callable[[int], bool], keep_live: bool = True) -> None:
        """Keep the graph of the wanted iterations (and whatever feeds it); drop the rest."""
        self.kept.append(wanted)
        rec = self.rec
        keeps = self.keeps
        if all(keeps(r.iteration) for r in rec.tensors) and all(
            keeps(f.iteration) for f in rec.functions
        ):
            return
        parents: dict[str, list[str]] = {}
        for source, target in rec.edges:
            parents.setdefault(target, []).append(source)
        keep: set[str] = set()
        stack = [r.id for r in rec.tensors if keeps(r.iteration)]
        stack += [f.id for f in rec.functions if keeps(f.iteration)]
        for p in rec.passes:
            if p.root is not None and keeps(p.index):
                stack.append(p.root.id)
        for t in rec.live_tensors() if keep_live else ():
            trec = rec.by_tensor.get(identity(t))
            if trec is not None and trec.tensor is t:
                stack.append(trec.id)
        while stack:
            nid = stack.pop()
            if nid in keep:
                continue
            keep.add(nid)
            stack.extend(parents.get(nid, ()))
        for r in rec.tensors:
            if r.id not in keep:
                rec.budget.held -= r.tensor.numel()
        rec.tensors = [r for r in rec.tensors if r.id in keep]
        rec.functions = [f for f in rec.functions if f.id in keep]
        rec.by_tensor = {k: r for k, r in rec.by_tensor.items() if r.id in keep}
        rec.by_output = {k: r for k, r in rec.by_output.items() if r.id in keep}
        rec.by_fn = {k: f for k, f in rec.by_fn.items() if f.id in keep}
        rec.leaf_accumulators = {k: f for k, f in rec.leaf_accumulators.items() if f.id in keep}
        rec.versions = {
            k: kept
            for k, recs in rec.versions.items()
            if (kept := [r for r in recs if r.id in keep])
        }
        rec.unfrozen = {
            k: kept
            for k, recs in rec.unfrozen.items()
            if (kept := [r for r in recs if r.id in keep])
        }
        rec.edges = {e: k for e, k in rec.edges.items() if e[0] in keep and e[1] in keep}
        rec.timeline = [e for e in rec.timeline if e.kept(keeps, keep)]
        for e in rec.timeline:
            if isinstance(e, Freed):
                e.nodes = [n for n in e.nodes if n in keep]
