"""The recorder's state as the Trace dict of API.md, ready for orjson."""

from __future__ import annotations

import ast
import warnings
from typing import Any

import orjson
import torch
from torch import nn
from torch.nn.parameter import UninitializedTensorMixin  # type: ignore[attr-defined]

from gradtrace.identity import identity
from gradtrace.language.module_tables import module_parameters
from gradtrace.language.tensor_text import clean_text
from gradtrace.trace.binary import Buffers, pack
from gradtrace.trace.models import SCHEMA, Trace
from gradtrace.trace.objects import construct_trace
from gradtrace.trace.recorder import Recorder
from gradtrace.trace.records import TensorRec
from gradtrace.trace.tensordata import Snapshot, dtype_name, materialize_all


def span(node: ast.AST | None) -> dict[str, int] | None:
    if node is None or not hasattr(node, "lineno"):
        return None
    return {
        "line": node.lineno,
        "col": node.col_offset,  # type: ignore[attr-defined]
        "end_line": node.end_lineno or node.lineno,  # type: ignore[attr-defined]
        "end_col": node.end_col_offset or 0,  # type: ignore[attr-defined]
    }


_SHORT_PREVIEW = 8


class _Spans(dict[int, Any]):
    """One span dict per source node, shared by every node a loop made there."""

    def of(self, node: ast.AST | None) -> dict[str, int] | None:
        key = identity(node)
        found = self.get(key, _MISSING)
        if found is _MISSING:
            found = self[key] = span(node)
        return found  # type: ignore[no-any-return]


class _LoopFrames(dict[tuple[tuple[int, int], ...], list[dict[str, int]]]):
    """One list of loop frames per distinct place in the loops, shared by every node made
    there (as a loop iteration makes many)."""

    def __missing__(self, loops: tuple[tuple[int, int], ...]) -> list[dict[str, int]]:
        frames = self[loops] = [{"line": line, "iteration": i} for line, i in loops]
        return frames


_MISSING: Any = object()


class _Writer:
    """Writes TensorData within the trace's size budget (API.md: 16 MB by default).

    Decided at the end, on what pruning kept, in the order a reader meets it: node values
    first, then `.grad`s, then the timeline. Each place a TensorData is written counts;
    past the budget, tensors carry stats and a short preview only.
    """

    def __init__(self, budget: int, *, placed_scalars: bool) -> None:
        self.remaining = budget
        self.cut = False
        self.snapshots: list[Snapshot] = []
        self.placed_scalars = placed_scalars

    def data(self, snap: Snapshot | None) -> Snapshot | dict[str, Any] | None:
        """Places `snap` in the trace: orjson asks for its TensorData when it meets it, or,
        a one-element tensor's when writing JSON, writes the dict `materialize_all` fills
        (a callback into Python per tensor cost more than writing the tensor)."""
        if snap is None:
            return None
        if snap.placed_bytes >= 0:  # met again: its size counts again, decided the first time
            snap.shared = True
            self.remaining -= snap.placed_bytes
            out = snap.out
            return out if out is not None else snap
        size = snap.approx_bytes()
        self.snapshots.append(snap)
        if size > self.remaining:
            snap.summarise(_SHORT_PREVIEW if self.remaining <= 0 else snap.preview)
            self.cut = self.cut or snap.numel > 0
            size = snap.approx_bytes()
        snap.placed_bytes = size
        self.remaining -= size
        if self.placed_scalars and snap.numel == 1:
            return snap.placed()
        return snap


def _tensordata(value: Any) -> Any:
    if isinstance(value, Snapshot):
        return value.written()
    raise TypeError(f"{type(value).__name__} is not part of a trace")


def dump_trace(rec: Recorder, **fields: Any) -> bytes:
    """The trace as JSON bytes: the dict of build_trace, its TensorData computed in bulk."""
    writer = _Writer(rec.limits.trace_bytes, placed_scalars=True)
    data = build_trace(rec, writer, **fields)
    materialize_all(writer.snapshots)
    return orjson.dumps(data, default=_tensordata, option=orjson.OPT_SERIALIZE_NUMPY)


def dump_binary_trace(rec: Recorder, **fields: Any) -> bytes:
    """The trace in its binary form (binary.py): the JSON of dump_trace, each float array's
    values a reference into the buffers that follow it, written as they are."""
    writer = _Writer(rec.limits.trace_bytes, placed_scalars=True)
    data = build_trace(rec, writer, **fields)
    materialize_all(writer.snapshots)
    buffers = Buffers()

    def tensordata(value: Any) -> Any:
        if isinstance(value, Snapshot):
            return value.written_binary(buffers)
        raise TypeError(f"{type(value).__name__} is not part of a trace")

    head = orjson.dumps(data, default=tensordata, option=orjson.OPT_SERIALIZE_NUMPY)
    return pack(head, buffers)


def trace_model(rec: Recorder, **fields: Any) -> Trace:
    """The same trace as pydantic objects (gradtrace.run), never written as JSON."""
    # Each snapshot stays itself: construct_trace makes one TensorData per snapshot.
    writer = _Writer(rec.limits.trace_bytes, placed_scalars=False)
    data = build_trace(rec, writer, **fields)
    materialize_all(writer.snapshots)
    return construct_trace(data)


def variables(rec: Recorder, names: dict[str, Any]) -> dict[str, TensorRec]:
    """Each global name bound to a tensor (and each parameter of a global Module)."""
    out: dict[str, TensorRec] = {}
    was = rec.active
    rec.active = True
    try:
        for name, value in names.items():
            # A lazy layer's weight before its first call (m.weight, a loop's last
            # parameter) holds no values: torch raises on anything asked of it.
            if isinstance(value, torch.Tensor) and not isinstance(value, UninitializedTensorMixin):
                out[name] = rec.node_of(value)
            elif isinstance(value, nn.Module):
                for pname, param in module_parameters(value):
                    # A key of the program's ("\ud800" in a ParameterDict) may hold a lone
                    # surrogate, which no UTF-8 writer takes: written as its escape.
                    out[clean_text(f"{name}.{pname}")] = rec.node_of(param)
    finally:
        rec.active = was
    for name, t in out.items():
        if t.name is None:
            t.name = name
    return out


def _resolve(rec: Recorder, names: dict[str, TensorRec]) -> dict[str, str]:
    """Node ids after pruning: a pruned node's name goes to the newest kept version."""
    present = {t.id for t in rec.tensors}
    out: dict[str, str] = {}
    for name, t in names.items():
        if t.id in present:
            out[name] = t.id
            continue
        versions = [v for v in rec.versions.get(identity(t.tensor), ()) if v.id in present]
        if versions:
            out[name] = versions[-1].id
    return out


# A tensor node's keys in API.md's order. Each node starts as a copy of this: copying a
# dict this size and setting its values costs ~25 % less than building it from a literal.
_TENSOR_NODE: dict[str, Any] = dict.fromkeys(
    (
        "id", "kind", "name", "shape", "dtype", "device", "requires_grad", "is_leaf", "value",
        "grad", "span", "role", "grad_fn", "retains_grad", "label", "hooks", "iteration",
        "module", "previous", "loops", "first_value",
    )
)  # fmt: skip
_TENSOR_NODE["kind"] = "tensor"


def _tensor_nodes(
    state: Recorder, writer: _Writer, spans: _Spans, frames: _LoopFrames, present: set[str]
) -> list[dict[str, Any]]:
    """Each kept tensor record as its node. One loop with what it reads held in locals:
    it runs for every node, and its share of a long trace's writing is the largest."""
    place = writer.data
    spans_get = spans.get
    by_fn = state.by_fn
    updated = state.ledger.updated
    new_node = _TENSOR_NODE.copy
    grads: dict[int, Any] = {}  # a tensor's .grad, by the tensor: versions share it
    nodes: list[dict[str, Any]] = []
    append = nodes.append
    for rec in state.tensors:
        t = rec.tensor
        grad_fn = rec.grad_fn
        snap = rec.snapshot
        first = None
        if rec.id in updated and t.numel():
            # An updated parameter: its values as the program left them, and as it was made.
            first, snap = snap, state.snapshot(t)
        node = new_node()
        node["id"] = rec.id
        node["name"] = rec.name
        if snap is not None:
            node["shape"] = snap.shape
            node["dtype"] = snap.dtype
        else:
            node["shape"] = list(t.shape)
            node["dtype"] = dtype_name(t.dtype)
        node["device"] = "cpu" if t.is_cpu else str(t.device)
        if grad_fn is None:
            node["requires_grad"] = t.requires_grad
            node["is_leaf"] = True
        else:
            node["requires_grad"] = True
            node["is_leaf"] = False
            fn_rec = by_fn.get(identity(grad_fn))
            if fn_rec is not None and fn_rec.fn is grad_fn:
                node["grad_fn"] = fn_rec.id
        # Placed in this order, value, grad, first_value: the size budget's order.
        node["value"] = place(snap)
        key = identity(t)
        if key in grads:
            grad = grads[key]
        else:
            grad = grads[key] = _grad_snapshot(rec, state)
        if grad is not None:
            node["grad"] = place(grad)
        source = rec.node
        found = spans_get(identity(source), _MISSING)
        node["span"] = found if found is not _MISSING else spans.of(source)
        node["role"] = rec.role
        node["retains_grad"] = rec.retains_grad
        node["label"] = rec.label
        node["hooks"] = rec.hooks
        node["iteration"] = rec.iteration
        node["module"] = rec.module
        loops = rec.loops
        node["loops"] = frames[loops] if loops else []
        earlier = rec.previous  # the newest earlier version of this tensor pruning kept
        while earlier is not None and earlier.id not in present:
            earlier = earlier.previous
        if earlier is not None:
            node["previous"] = earlier.id
        if first is not None:
            node["first_value"] = place(first)
        append(node)
    return nodes


def _grad_snapshot(rec: TensorRec, state: Recorder) -> Snapshot | None:
    t = rec.tensor
    grad = None
    # torch fills .grad only on leaves and on tensors that called retain_grad(); reading
    # it elsewhere costs a warning each time (a program may also set it by hand).
    try:
        leaf = t.is_leaf
    except RuntimeError:  # a view made under no_grad whose base then changed in place:
        leaf = rec.grad_fn is None  # torch refuses to say; it was one when recorded
    if leaf or rec.retains_grad or t.retains_grad:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            grad = t.grad
    return state.snapshot(grad) if isinstance(grad, torch.Tensor) else None


def _function_nodes(
    state: Recorder, first_sequence_nr: int, writer: _Writer, spans: _Spans, frames: _LoopFrames
) -> list[dict[str, Any]]:
    place = writer.data
    spans_get = spans.get
    nodes: list[dict[str, Any]] = []
    append = nodes.append
    for rec in state.functions:
        saved = rec.saved
        loops = rec.loops
        tensor = rec.tensor
        source = rec.node
        found = spans_get(identity(source), _MISSING)
        sequence_nr = rec.sequence_nr
        append(
            {
                "id": rec.id,
                "kind": "function",
                "op": rec.op,
                "span": found if found is not _MISSING else spans.of(source),
                "saved": [
                    {"name": s["name"], "node": s["node"], "value": place(s["value"])}
                    for s in saved
                ]
                if saved
                else [],
                "tensor": tensor.id if tensor is not None else None,
                "custom": rec.custom,
                "sequence_nr": sequence_nr - first_sequence_nr
                if sequence_nr is not None and sequence_nr < _UNSEQUENCED
                else None,
                "iteration": rec.iteration,
                "module": rec.module,
                "loops": frames[loops] if loops else [],
            }
        )
    return nodes


# AccumulateGrad Nodes carry UINT64_MAX: they run whenever their leaf's gradient is ready.
_UNSEQUENCED = 2**63


def _real_sequence_nr(value: int | None) -> bool:
    return value is not None and value < _UNSEQUENCED


def build_trace(
    rec: Recorder,
    writer: _Writer,
    *,
    ok: bool,
    error: dict[str, Any] | None,
    device: str,
    names: dict[str, TensorRec],
    warnings_seen: list[dict[str, Any]],
    seed: int,
    version: str,
    elapsed_ms: float,
    relative_sequence: bool = True,
) -> dict[str, Any]:
    rec.ledger.flush()
    rec.pruning.finish()
    spans = _Spans()
    frames = _LoopFrames()
    present = {t.id for t in rec.tensors}
    nodes = _tensor_nodes(rec, writer, spans, frames, present)
    # torch's counter is per thread and process-wide: count from this job's first Node.
    numbers = [
        n for f in rec.functions if (n := f.sequence_nr) is not None and _real_sequence_nr(n)
    ]
    first = min(numbers, default=0) if relative_sequence else 0
    nodes.extend(_function_nodes(rec, first, writer, spans, frames))
    timeline = [e.written(writer) for e in rec.timeline]
    if writer.cut:
        rec.truncation.append(
            "tensor values: past the trace size budget only stats and short previews are kept"
        )
    passes = [
        {
            "index": p.index,
            "root": p.root.id if p.root is not None else None,
            "line": p.line,
            "retain_graph": p.retain_graph,
            "kind": p.kind,
            "create_graph": p.create_graph,
        }
        for p in rec.passes
        if rec.pruning.keeps(p.index)
    ]
    series = [
        {"label": label, "line": rec.series.lines.get(label), "values": values}
        for label, values in rec.series.points.items()
        if len(values) >= 2
    ]
    return {
        "schema": SCHEMA,
        "ok": ok,
        "error": error,
        "stdout": "".join(rec.stdout),
        "device": device,
        "variables": _resolve(rec, names),
        "nodes": nodes,
        "edges": [{"source": s, "target": t, "kind": k} for (s, t), k in rec.edges.items()],
        "timeline": timeline,
        "passes": passes,
        "truncated": bool(rec.truncation),
        "truncation": rec.truncation,
        "series": series,
        "iterations": len(rec.passes),
        "training_steps": rec.ledger.training_steps,
        "warnings": warnings_seen,
        "seed": seed,
        "version": version,
        "elapsed_ms": elapsed_ms,
    }
