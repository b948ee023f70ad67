"""The least that recording and writing this trace can cost: a lower bound for issue 19.

The language runs the program (as in language_floor.py) with a recorder that does only
what every design of the trace must do, and no more:

- forward: each result appended to three lists (the tensor, its source node, its loops);
  no versions, no budget, no pruning, no saved tensors, no modules, no leaf ledger;
- backward: a Python post-hook on every Node the pass can reach (torch's only way to see
  each Node's gradients as it runs), appending what it received;
- writing: the nodes, edges and timeline of the same JSON contract (API.md), the values
  and gradients stacked and reduced in bulk, each TensorData made once and shared.

What it leaves out is work the real recorder must do, so its time is a floor: a design
of the recorder and the writer that keeps this contract costs at least this. Its payload
is checked against the real trace's (nodes, size) so that both write the same thing.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import gc
import io
from collections.abc import Callable
from typing import Any

import numpy as np
import orjson
import torch
from torch import Tensor

from bench.language_floor import NullRecording
from gradtrace.identity import identity
from gradtrace.language.interpreter import Interpreter
from gradtrace.language.limits import Limits
from gradtrace.language.parse import parse_program
from gradtrace.trace.models import SCHEMA
from gradtrace.trace.serialize import span
from gradtrace.trace.session import clean_torch_state

_SHORT_PREVIEW = 8


def _ran(ran: list[tuple[Any, Any, Any]], fn: Any, grad_inputs: Any, grad_outputs: Any) -> None:
    ran.append((fn, grad_inputs, grad_outputs))


class LeanRecording(NullRecording):
    """What any recorder must do while the program runs: keep each result and, in a
    backward pass, each Node's gradients."""

    def __init__(self) -> None:
        super().__init__()
        self.tensors: list[Tensor] = []
        self.sources: list[ast.AST | None] = []
        self.loops_of: list[tuple[tuple[int, int], ...]] = []
        self.inputs_of: list[tuple[Any, ...]] = []
        self.ran: list[tuple[Any, Any, Any]] = []
        self.passes: list[int] = []  # where each pass's events start in `ran`

    def result(
        self, t: Tensor, node: ast.AST | None, label: str | None, inputs: tuple[Any, ...]
    ) -> None:
        self.tensors.append(t)
        self.sources.append(node)
        self.loops_of.append(self.loops)
        self.inputs_of.append(inputs)

    def tensor_special(self, name: str) -> Callable[..., Any] | None:
        return self._backward if name == "backward" else None

    def _backward(
        self, t: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any], node: ast.AST
    ) -> Any:
        seen: set[int] = set()
        stack = [t.grad_fn]
        ran = self.ran
        while stack:
            fn = stack.pop()
            if fn is None or identity(fn) in seen:
                continue
            seen.add(identity(fn))
            fn.register_hook(functools.partial(_ran, ran, fn))
            stack.extend(nxt for nxt, _ in fn.next_functions)
        self.passes.append(len(ran))
        return t.backward(*args, **kwargs)


class _Data:
    """Each tensor's TensorData made once, in bulk, within the trace's size budget."""

    def __init__(self, limits: Limits) -> None:
        self.remaining = limits.trace_bytes
        self.full_values = limits.full_values
        self.preview = limits.preview_values
        self.made: dict[int, dict[str, Any]] = {}
        self.pending: list[tuple[dict[str, Any], Tensor, bool, int]] = []
        self.keep: list[Tensor] = []

    def of(self, t: Tensor | None) -> dict[str, Any] | None:
        if t is None:
            return None
        key = identity(t)
        data = self.made.get(key)
        numel = t.numel()
        full = numel <= self.full_values
        preview = self.preview
        size = 200 + 12 * (numel if full else min(self.preview, numel))
        if data is None:
            if size > self.remaining:
                full = False
                if self.remaining <= 0:
                    preview = _SHORT_PREVIEW
                size = 200 + 12 * min(preview, numel)
            data = self.made[key] = {
                "shape": list(t.shape),
                "dtype": str(t.dtype).removeprefix("torch."),
                "numel": numel,
                "values": None,
                "preview": None,
                "stats": None,
            }
            self.pending.append((data, t.detach(), full, preview))
            self.keep.append(t)
        self.remaining -= size
        return data

    @torch.no_grad()
    def fill(self) -> None:
        groups: dict[tuple[Any, ...], list[tuple[dict[str, Any], Tensor, bool, int]]] = {}
        for entry in self.pending:
            t = entry[1]
            groups.setdefault((tuple(t.shape), t.dtype), []).append(entry)
        for (shape, _), members in groups.items():
            block = torch.stack([entry[1] for entry in members]).reshape(len(members), -1)
            numel = block.shape[1]
            sums = block.sum(1)
            means_t = sums / numel
            stds = ((block - means_t.unsqueeze(1)).square().sum(1) / numel).sqrt().tolist()
            norms = torch.linalg.vector_norm(block, dim=1).tolist()
            mins = block.amin(1).tolist()
            maxs = block.amax(1).tolist()
            means = means_t.tolist()
            arr = block.numpy()
            scalar = numel == 1
            for k, (data, _, full, preview) in enumerate(members):
                if scalar:
                    value: Any = mins[k]
                    for _ in shape:
                        value = [value]
                    data["values"] = value
                elif full:
                    data["values"] = arr[k].reshape(shape)
                else:
                    data["preview"] = arr[k, :preview].tolist()
                data["stats"] = {
                    "min": mins[k], "max": maxs[k], "mean": means[k], "std": stds[k],
                    "norm": norms[k], "nan": 0, "inf": 0,
                }  # fmt: skip


def write(rec: LeanRecording, limits: Limits, stdout: str) -> bytes:
    """The trace's JSON: nodes, edges, timeline, with the same fields as the real one."""
    data = _Data(limits)
    spans: dict[int, Any] = {}
    frames: dict[Any, list[dict[str, int]]] = {}
    nodes: list[dict[str, Any]] = []
    timeline: list[dict[str, Any]] = []
    edges: dict[tuple[str, str], str] = {}
    tensor_ids: dict[int, str] = {}
    by_output: dict[tuple[int, int], str] = {}
    fn_ids: dict[int, str] = {}
    functions: list[tuple[Any, ast.AST | None, Any]] = []
    counter = 0

    def span_of(node: ast.AST | None) -> Any:
        key = identity(node)
        if key not in spans:
            spans[key] = span(node)
        return spans[key]

    def frames_of(loops: tuple[tuple[int, int], ...]) -> list[dict[str, int]]:
        found = frames.get(loops)
        if found is None:
            found = frames[loops] = [{"line": line, "iteration": i} for line, i in loops]
        return found

    def function(fn: Any, node: ast.AST | None, loops: Any) -> str:
        nonlocal counter
        key = identity(fn)
        fid = fn_ids.get(key)
        if fid is None:
            counter += 1
            fid = fn_ids[key] = f"f{counter}"
            functions.append((fn, node, loops))
        return fid

    for t, node, loops, inputs in zip(rec.tensors, rec.sources, rec.loops_of, rec.inputs_of):
        key = identity(t)
        if key in tensor_ids:
            continue
        counter += 1
        tid = tensor_ids[key] = f"t{counter}"
        timeline.append({"phase": "forward", "node": tid})
        gf = t.grad_fn
        grad = t.grad if gf is None else None
        node_dict: dict[str, Any] = {
            "id": tid, "kind": "tensor", "name": None, "shape": list(t.shape),
            "dtype": str(t.dtype).removeprefix("torch."), "device": "cpu",
            "requires_grad": t.requires_grad, "is_leaf": gf is None, "value": data.of(t),
            "grad": data.of(grad), "span": span_of(node), "role": "intermediate",
            "grad_fn": None, "retains_grad": False, "label": None, "hooks": 0,
            "iteration": 0, "module": None, "previous": None, "loops": frames_of(loops),
            "first_value": None,
        }  # fmt: skip
        if gf is not None:
            fid = function(gf, node, loops)
            node_dict["grad_fn"] = fid
            by_output[(identity(gf), t.output_nr)] = tid
            edges[(fid, tid)] = "autograd"
            for x in inputs:
                if isinstance(x, Tensor) and not x.requires_grad:
                    source = tensor_ids.get(identity(x))
                    if source is not None:
                        edges[(source, fid)] = "input"
        nodes.append(node_dict)
    # Every Node the program's tensors lead to, and the edges between them.
    done = 0
    while done < len(functions):
        fn, node, loops = functions[done]
        done += 1
        fid = fn_ids[identity(fn)]
        variable = getattr(fn, "variable", None)
        if variable is not None:
            leaf = tensor_ids.get(identity(variable))
            if leaf is not None:
                edges[(leaf, fid)] = "autograd"
        for nxt, nr in fn.next_functions:
            if nxt is None:
                continue
            produced = by_output.get((identity(nxt), nr))
            if produced is not None:
                edges[(produced, fid)] = "autograd"
            else:
                edges[(function(nxt, node, loops), fid)] = "autograd"
    first = min((fn._sequence_nr() for fn, _, _ in functions), default=0)
    for fn, node, loops in functions:
        variable = getattr(fn, "variable", None)
        nodes.append(
            {
                "id": fn_ids[identity(fn)],
                "kind": "function",
                "op": type(fn).__name__,
                "span": span_of(node),
                "saved": [],
                "tensor": tensor_ids.get(identity(variable)) if variable is not None else None,
                "custom": False,
                "sequence_nr": fn._sequence_nr() - first if variable is None else None,
                "iteration": 0,
                "module": None,
                "loops": frames_of(loops),
            }
        )
    # The backward passes, as the hooks saw them.
    starts = [*rec.passes, len(rec.ran)]
    for p in range(len(rec.passes)):
        for fn, grad_inputs, grad_outputs in rec.ran[starts[p] : starts[p + 1]]:
            key = identity(fn)
            outs = [data.of(g) for g in grad_outputs]
            variable = getattr(fn, "variable", None)
            if variable is not None:  # AccumulateGrad: its leaf's gradient arrived
                leaf = tensor_ids.get(identity(variable))
                timeline.append(
                    {
                        "phase": "backward", "node_kind": "function", "pass": p,
                        "node": fn_ids.get(key), "grad_inputs": [], "grad_outputs": outs,
                    }
                )  # fmt: skip
                if leaf is not None and outs and outs[0] is not None:
                    timeline.append(
                        {
                            "phase": "backward", "node_kind": "tensor", "pass": p,
                            "node": leaf, "grad": outs[0], "hooked": False,
                            # A leaf's first gradient is its sum (the real trace: null).
                            "accumulated": None if p == 0 else data.of(variable.grad),
                        }
                    )  # fmt: skip
                continue
            for k, g in enumerate(outs):
                tid = by_output.get((key, k))
                if tid is not None and g is not None:
                    timeline.append(
                        {
                            "phase": "backward", "node_kind": "tensor", "pass": p, "node": tid,
                            "grad": g, "hooked": False, "accumulated": None,
                        }
                    )  # fmt: skip
            timeline.append(
                {
                    "phase": "backward",
                    "node_kind": "function",
                    "pass": p,
                    "node": fn_ids.get(key),
                    "grad_inputs": [data.of(g) for g in grad_inputs],
                    "grad_outputs": outs,
                }
            )
    data.fill()
    trace = {
        "schema": SCHEMA, "ok": True, "error": None, "stdout": stdout, "device": "cpu",
        "variables": {}, "nodes": nodes,
        "edges": [{"source": s, "target": t, "kind": k} for (s, t), k in edges.items()],
        "timeline": timeline, "passes": [], "truncated": False, "truncation": [],
        "series": [], "iterations": len(rec.passes), "training_steps": 0, "warnings": [],
        "seed": 0, "version": "", "elapsed_ms": 0.0,
    }  # fmt: skip
    return orjson.dumps(trace, option=orjson.OPT_SERIALIZE_NUMPY)


def lean_job(
    source: str,
    limits: Limits,
    release_later: list[Callable[[], None]] | None = None,
    writer: Callable[[LeanRecording, Limits, str], bytes] | None = None,
) -> bytes:
    """`source` through the language with the lean recorder, written: the job's floor.
    Its objects are freed as it returns, or, as a worker frees them after sending the
    trace, by the function it leaves in `release_later`."""
    rec = LeanRecording()
    interp = Interpreter(source, limits, rec, "cpu")
    collecting = gc.isenabled()
    gc.disable()
    out = io.StringIO()
    held = [(interp, rec)]

    def release() -> None:
        while held:
            job_interp, _ = held.pop()
            job_interp.close()
            del job_interp
        if collecting:
            gc.enable()

    try:
        with clean_torch_state(0, "cpu"), contextlib.redirect_stdout(out):
            interp.run(parse_program(source, limits))
        return (writer or write)(rec, limits, out.getvalue())
    finally:
        if release_later is None:
            release()
        else:
            release_later.append(release)


class _Table:
    """Every tensor a columnar trace carries, by reference: one block per shape and
    dtype, its rows the tensors; values, past the size budget, left out by block."""

    def __init__(self, limits: Limits) -> None:
        self.remaining = limits.trace_bytes
        self.full_values = limits.full_values
        self.refs: dict[int, int] = {}
        self.group_of: list[int] = []
        self.row_of: list[int] = []
        self.groups: dict[tuple[Any, ...], int] = {}
        self.members: list[list[Tensor]] = []

    def of(self, t: Tensor | None) -> int:
        if t is None:
            return -1
        key = identity(t)
        ref = self.refs.get(key)
        if ref is None:
            gkey = (t.shape, t.dtype)
            g = self.groups.get(gkey)
            if g is None:
                g = self.groups[gkey] = len(self.members)
                self.members.append([])
            members = self.members[g]
            ref = self.refs[key] = len(self.group_of)
            self.group_of.append(g)
            self.row_of.append(len(members))
            members.append(t.detach())
        return ref

    @torch.no_grad()
    def written(self) -> dict[str, Any]:
        blocks = []
        for (shape, dtype), g in self.groups.items():
            members = self.members[g]
            block = torch.stack(members).reshape(len(members), -1)
            numel = block.shape[1]
            means = block.sum(1) / numel
            size = 12 * block.numel()
            full = numel <= self.full_values and size <= self.remaining
            self.remaining -= size if full else 100 * len(members)
            blocks.append(
                {
                    "shape": list(shape),
                    "dtype": str(dtype).removeprefix("torch."),
                    "values": block.numpy() if full else None,
                    "preview": None if full else block[:, :_SHORT_PREVIEW].contiguous().numpy(),
                    "min": block.amin(1).numpy(),
                    "max": block.amax(1).numpy(),
                    "mean": means.numpy(),
                    "std": ((block - means.unsqueeze(1)).square().sum(1) / numel).sqrt().numpy(),
                    "norm": torch.linalg.vector_norm(block, dim=1).numpy(),
                }
            )
        return {
            "blocks": blocks,
            "block": np.array(self.group_of, dtype=np.int32),
            "row": np.array(self.row_of, dtype=np.int32),
        }


def write_columns(rec: LeanRecording, limits: Limits, stdout: str) -> bytes:
    """The same trace in columns: no object per node, edge, event or tensor; each field a
    list of numbers (or of shared strings), tensors by reference into `_Table`'s blocks."""
    table = _Table(limits)
    of = table.of
    spans: dict[int, int] = {}
    span_list: list[Any] = []
    frames: dict[Any, int] = {}
    frame_list: list[Any] = []
    tensor_ids: dict[int, int] = {}
    by_output: dict[tuple[int, int], int] = {}
    fn_ids: dict[int, int] = {}
    functions: list[tuple[Any, ast.AST | None, Any]] = []
    t_value: list[int] = []
    t_grad: list[int] = []
    t_fn: list[int] = []
    t_span: list[int] = []
    t_loops: list[int] = []
    t_requires: list[bool] = []
    sources: list[int] = []
    targets: list[int] = []
    kinds: list[int] = []  # 0 autograd, 1 input
    forward: list[int] = []

    def place(node: ast.AST | None, loops: Any) -> tuple[int, int]:
        key = identity(node)
        s = spans.get(key)
        if s is None:
            s = spans[key] = len(span_list)
            span_list.append(span(node))
        f = frames.get(loops)
        if f is None:
            f = frames[loops] = len(frame_list)
            frame_list.append(loops)
        return s, f

    def function(fn: Any, node: ast.AST | None, loops: Any) -> int:
        key = identity(fn)
        fid = fn_ids.get(key)
        if fid is None:
            fid = fn_ids[key] = len(functions)
            functions.append((fn, node, loops))
        return fid

    for t, node, loops, inputs in zip(rec.tensors, rec.sources, rec.loops_of, rec.inputs_of):
        key = identity(t)
        if key in tensor_ids:
            continue
        tid = tensor_ids[key] = len(t_value)
        forward.append(tid)
        gf = t.grad_fn
        t_value.append(of(t))
        t_grad.append(of(t.grad) if gf is None else -1)
        s, f = place(node, loops)
        t_span.append(s)
        t_loops.append(f)
        t_requires.append(t.requires_grad)
        if gf is None:
            t_fn.append(-1)
            continue
        fid = function(gf, node, loops)
        t_fn.append(fid)
        by_output[(identity(gf), t.output_nr)] = tid
        for x in inputs:
            if isinstance(x, Tensor) and not x.requires_grad:
                source = tensor_ids.get(identity(x))
                if source is not None:
                    sources.append(source)
                    targets.append(~fid)
                    kinds.append(1)
    # Edges among Nodes (a Node as ~index, a tensor as its index), found from the graph.
    done = 0
    f_tensor: list[int] = []
    while done < len(functions):
        fn, node, loops = functions[done]
        fid = done
        done += 1
        variable = getattr(fn, "variable", None)
        leaf = tensor_ids.get(identity(variable), -1) if variable is not None else -1
        f_tensor.append(leaf)
        if leaf >= 0:
            sources.append(leaf)
            targets.append(~fid)
            kinds.append(0)
        for nxt, nr in fn.next_functions:
            if nxt is None:
                continue
            produced = by_output.get((identity(nxt), nr))
            sources.append(produced if produced is not None else ~function(nxt, node, loops))
            targets.append(~fid)
            kinds.append(0)
    f_op: list[str] = []
    f_span: list[int] = []
    f_loops: list[int] = []
    f_seq: list[int] = []
    for fn, node, loops in functions:
        f_op.append(type(fn).__name__)
        s, f = place(node, loops)
        f_span.append(s)
        f_loops.append(f)
        f_seq.append(fn._sequence_nr())
    # The backward passes: one row per Node that ran, its gradients by reference.
    b_pass: list[int] = []
    b_fn: list[int] = []
    b_ins: list[int] = []
    b_outs: list[int] = []
    b_in_counts: list[int] = []
    b_out_counts: list[int] = []
    starts = [*rec.passes, len(rec.ran)]
    for p in range(len(rec.passes)):
        for fn, grad_inputs, grad_outputs in rec.ran[starts[p] : starts[p + 1]]:
            b_pass.append(p)
            b_fn.append(fn_ids.get(identity(fn), -1))
            b_in_counts.append(len(grad_inputs))
            b_out_counts.append(len(grad_outputs))
            b_ins.extend([of(g) for g in grad_inputs])
            b_outs.extend([of(g) for g in grad_outputs])
    i32 = np.int32
    trace = {
        "schema": SCHEMA, "ok": True, "error": None, "stdout": stdout, "device": "cpu",
        "spans": span_list, "loops": [[list(frame) for frame in loops] for loops in frame_list],
        "tensors": {
            "value": np.array(t_value, i32), "grad": np.array(t_grad, i32),
            "grad_fn": np.array(t_fn, i32), "span": np.array(t_span, i32),
            "loops": np.array(t_loops, i32), "requires_grad": np.array(t_requires),
        },
        "functions": {
            "op": f_op, "span": np.array(f_span, i32), "loops": np.array(f_loops, i32),
            "sequence_nr": np.array(f_seq, np.uint64), "tensor": np.array(f_tensor, i32),
        },
        "edges": {
            "source": np.array(sources, i32), "target": np.array(targets, i32),
            "kind": np.array(kinds, np.int8),
        },
        "forward": np.array(forward, i32),
        "backward": {
            "pass": np.array(b_pass, i32), "function": np.array(b_fn, i32),
            "grad_inputs": np.array(b_ins, i32), "grad_outputs": np.array(b_outs, i32),
            "inputs": np.array(b_in_counts, i32), "outputs": np.array(b_out_counts, i32),
        },
        "data": table.written(),
        "iterations": len(rec.passes),
    }  # fmt: skip
    return orjson.dumps(trace, option=orjson.OPT_SERIALIZE_NUMPY)


def columnar_job(
    source: str, limits: Limits, release_later: list[Callable[[], None]] | None = None
) -> bytes:
    """lean_job's recording, written in columns (write_columns)."""
    return lean_job(source, limits, release_later, write_columns)
