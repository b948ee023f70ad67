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
from gradtrace.trace.binary import Buffers, pack
from gradtrace.trace.models import SCHEMA, Trace
from gradtrace.trace.objects import construct_trace
from gradtrace.trace.recorder import Recorder
from gradtrace.trace.records import FunctionRec, TensorRec
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


_MISSING: Any = object()


class _Writer:
    """Writes TensorData within the trace's size budget (API.md: 16 MB by default).

    Decided at the end, on what pruning kept, in the order a reader meets it: node values
    first, then `.grad`s, then the timeline. Each place a TensorData is written counts;
    past the budget, tensors carry stats and a short preview only.
    """

    def __init__(self, budget: int) -> None:
        self.remaining = budget
        self.cut = False
        self.snapshots: list[Snapshot] = []

    def data(self, snap: Snapshot | None) -> Snapshot | None:
        """Places `snap` in the trace: orjson asks for its TensorData when it meets it."""
        if snap is None:
            return None
        size = snap.approx_bytes()
        if not snap.budgeted:
            snap.budgeted = True
            self.snapshots.append(snap)
            if size > self.remaining:
                snap.summarise(_SHORT_PREVIEW if self.remaining <= 0 else snap.preview)
                self.cut = self.cut or snap.numel > 0
                size = snap.approx_bytes()
        else:
            snap.shared = True
        self.remaining -= size
        return snap


def _tensordata(value: Any) -> Any:
    if isinstance(value, Snapshot):
        return value.written()
    raise TypeError(f"{type(value).__name__} is not part of a trace")


def dump_trace(rec: Recorder, **fields: Any) -> bytes:
    """The trace as JSON bytes: the dict of build_trace, its TensorData computed in bulk."""
    writer = _Writer(rec.limits.trace_bytes)
    data = build_trace(rec, writer, **fields)
    materialize_all(writer.snapshots)
    return orjson.dumps(data, default=_tensordata, option=orjson.OPT_SERIALIZE_NUMPY)


def dump_binary_trace(rec: Recorder, **fields: Any) -> bytes:
    """The trace in its binary form (binary.py): the JSON of dump_trace, each float array's
    values a reference into the buffers that follow it, written as they are."""
    writer = _Writer(rec.limits.trace_bytes)
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
    writer = _Writer(rec.limits.trace_bytes)
    data = build_trace(rec, writer, **fields)
    materialize_all(writer.snapshots)
    return construct_trace(data)


def _grad_of(
    rec: TensorRec, rec_state: Recorder, cache: dict[int, Snapshot | None], writer: _Writer
) -> Snapshot | None:
    t = rec.tensor
    key = identity(t)
    if key not in cache:
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
        cache[key] = rec_state.snapshot(grad) if isinstance(grad, torch.Tensor) else None
    return writer.data(cache[key])


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
                    out[f"{name}.{pname}"] = rec.node_of(param)
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


def _tensor_node(
    rec: TensorRec,
    state: Recorder,
    grads: dict[int, Snapshot | None],
    present: set[str],
    writer: _Writer,
    spans: _Spans,
) -> dict[str, Any]:
    t = rec.tensor
    fn_rec = state.by_fn.get(identity(rec.grad_fn)) if rec.grad_fn is not None else None
    snap = rec.snapshot
    first = None
    if rec.id in state.ledger.updated and t.numel():
        # An updated parameter: its values as the program left them, and as it was made.
        first, snap = snap, state.snapshot(t)
    return {
        "id": rec.id,
        "kind": "tensor",
        "name": rec.name,
        "shape": snap.shape if snap is not None else list(t.shape),
        "dtype": snap.dtype if snap is not None else dtype_name(t.dtype),
        "device": "cpu" if t.is_cpu else str(t.device),
        "requires_grad": t.requires_grad if rec.grad_fn is None else True,
        "is_leaf": rec.grad_fn is None,
        "value": writer.data(snap),
        "grad": _grad_of(rec, state, grads, writer),
        "span": spans.of(rec.node),
        "role": rec.role,
        "grad_fn": fn_rec.id if fn_rec is not None and fn_rec.fn is rec.grad_fn else None,
        "retains_grad": rec.retains_grad,
        "label": rec.label,
        "hooks": rec.hooks,
        "iteration": rec.iteration,
        "module": rec.module,
        "loops": [{"line": line, "iteration": i} for line, i in rec.loops],
        "previous": _kept_previous(rec, present),
        "first_value": writer.data(first),
    }


def _kept_previous(rec: TensorRec, present: set[str]) -> str | None:
    """The newest earlier version of this tensor that pruning kept."""
    earlier = rec.previous
    while earlier is not None and earlier.id not in present:
        earlier = earlier.previous
    return earlier.id if earlier is not None else None


def _function_node(
    rec: FunctionRec, first_sequence_nr: int, writer: _Writer, spans: _Spans
) -> dict[str, Any]:
    return {
        "id": rec.id,
        "kind": "function",
        "op": rec.op,
        "span": spans.of(rec.node),
        "saved": [
            {
                "name": s["name"],
                "node": s["node"],
                "value": writer.data(s["value"]),
            }
            for s in rec.saved
        ],
        "tensor": rec.tensor.id if rec.tensor is not None else None,
        "custom": rec.custom,
        "sequence_nr": _relative(rec.sequence_nr, first_sequence_nr),
        "iteration": rec.iteration,
        "module": rec.module,
        "loops": [{"line": line, "iteration": i} for line, i in rec.loops],
    }


def _real_sequence_nr(value: int | None) -> bool:
    # AccumulateGrad Nodes carry UINT64_MAX: they run whenever their leaf's gradient is ready.
    return value is not None and value < 2**63


def _relative(value: int | None, first: int) -> int | None:
    return value - first if value is not None and _real_sequence_nr(value) else None


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
    grads: dict[int, Snapshot | None] = {}
    spans = _Spans()
    present = {t.id for t in rec.tensors}
    nodes: list[dict[str, Any]] = [
        _tensor_node(t, rec, grads, present, writer, spans) for t in rec.tensors
    ]
    # torch's counter is per thread and process-wide: count from this job's first Node.
    numbers = [
        n for f in rec.functions if (n := f.sequence_nr) is not None and _real_sequence_nr(n)
    ]
    first = min(numbers, default=0) if relative_sequence else 0
    nodes.extend(_function_node(f, first, writer, spans) for f in rec.functions)
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
        {"label": label, "line": None, "values": values}
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
