"""Comparing the autograd graphs of two traces, node by node.

Node ids differ between traces, so nodes are matched by position in the graph: the
graph of one pass is what its root's Node reaches; inside it, the Nodes (other than
AccumulateGrad) are ranked by `sequence_nr` (torch numbers Nodes in the order they are
made, so the same forward computation ranks them the same way whatever their absolute
numbers); an AccumulateGrad is known by the ranks of the Nodes it feeds, and by its
leaf's value where those tie.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from gradtrace.trace.models import (
    BackwardFunctionEvent,
    FunctionNode,
    TensorData,
    TensorNode,
    Trace,
)

Key = tuple[Any, ...]


@dataclass
class PassGraph:
    keys: dict[str, Key]  # function node id -> key
    edges: set[tuple[Key, Key]]  # producer -> consumer (forward direction)
    leaves: dict[Key, TensorNode]  # AccumulateGrad key -> its leaf
    events: list[tuple[Key, BackwardFunctionEvent]]  # in the engine's order


def _number(v: Any) -> float:
    return float(v) if not isinstance(v, str) else float(v.replace("inf", "Infinity"))


def array(data: TensorData) -> np.ndarray[Any, Any]:
    assert data.values is not None, "a tensor too large for its values"
    values = data.values
    if isinstance(values, list):
        return np.vectorize(_number, otypes=[np.float64])(np.array(values, dtype=object))
    return np.array(_number(values))


def same_data(a: TensorData | None, b: TensorData | None, rtol: float = 1e-5) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.values is not None and b.values is not None:
        return bool(np.allclose(array(a), array(b), rtol=rtol, atol=1e-6, equal_nan=True))
    if a.stats is None or b.stats is None or a.preview is None or b.preview is None:
        return False
    close = [
        math.isclose(_number(x), _number(y), rel_tol=rtol, abs_tol=1e-5)
        for x, y in zip(a.preview, b.preview)
    ]
    stats = [
        math.isclose(_number(getattr(a.stats, k)), _number(getattr(b.stats, k)), rel_tol=rtol)
        for k in ("min", "max", "mean", "norm")
    ]
    return all(close) and all(stats)


def pass_graph(trace: Trace, index: int) -> PassGraph:
    """The graph of pass `index` (every Node its root reaches), keyed by position."""
    nodes = {n.id: n for n in trace.nodes}
    functions = {n.id: n for n in trace.nodes if isinstance(n, FunctionNode)}
    makers: dict[str, list[str]] = {}
    users: dict[str, list[str]] = {}
    for e in trace.edges:
        if e.kind == "autograd":
            makers.setdefault(e.target, []).append(e.source)
            users.setdefault(e.source, []).append(e.target)
    # Node -> the Nodes it feeds, through the tensor between them where one is recorded.
    feeds: dict[str, set[str]] = {f: set() for f in functions}
    for f in functions:
        for target in users.get(f, []):
            if target in functions:
                feeds[f].add(target)
            else:
                feeds[f].update(t for t in users.get(target, []) if t in functions)
    fed_by: dict[str, set[str]] = {f: set() for f in functions}
    for f, targets in feeds.items():
        for t in targets:
            fed_by[t].add(f)
    root_id = next(p.root for p in trace.passes if p.index == index)
    assert root_id is not None
    root = nodes[root_id]
    assert isinstance(root, TensorNode) and root.grad_fn is not None
    seen: set[str] = set()
    stack = [root.grad_fn]
    while stack:
        f = stack.pop()
        if f not in seen:
            seen.add(f)
            stack.extend(fed_by[f])
    ranked = sorted(
        (f for f in seen if functions[f].op != "AccumulateGrad"),
        key=lambda f: functions[f].sequence_nr or 0,
    )
    keys: dict[str, Key] = {f: (functions[f].op, i) for i, f in enumerate(ranked)}
    leaves: dict[Key, TensorNode] = {}
    for f in seen - set(ranked):
        leaf = nodes[functions[f].tensor or ""]
        assert isinstance(leaf, TensorNode)
        key: Key = ("AccumulateGrad", tuple(sorted(keys[t][1] for t in feeds[f] if t in keys)))
        if key in leaves:
            key = (*key, str(leaf.value.values))
        keys[f] = key
        leaves[key] = leaf
    edges = {(keys[f], keys[t]) for f in seen for t in feeds[f] if t in seen}
    events = [
        (keys[e.node], e)
        for e in trace.timeline
        if isinstance(e, BackwardFunctionEvent) and e.pass_ == index and e.node in keys
    ]
    return PassGraph(keys, edges, leaves, events)


def ops(graph: PassGraph) -> Counter[str]:
    return Counter(k[0] for k in graph.keys.values())
