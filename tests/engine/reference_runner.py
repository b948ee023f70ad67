"""The reference: run programs with plain CPython + torch and dump what they leave.

Usage: python reference_runner.py OUT.json PROGRAM.py [PROGRAM.py ...]

This is test tooling, never part of gradtrace: it runs trusted files from the repository
(tests/programs, ../shared/programs) exactly as `python FILE` would, after
`torch.manual_seed(0)`, each in a fresh namespace and a reset torch state. Each program
runs twice:

* plain: `runpy.run_path`, nothing patched. Gives stdout, the exception (type, message,
  the innermost line of the program it came from), and for every global name bound to a
  tensor at the end its `.grad` and value; for every global nn.Module the `.grad` of each
  named parameter, as `module.param`.
* probe: the same file, executed in a namespace the runner holds, with
  `torch.autograd.backward` and `torch.autograd.grad` wrapped. Before each real backward
  pass the wrapper computes, with the original `torch.autograd.grad` and
  `retain_graph=True`, the gradient of the pass's root (with the pass's own
  grad_outputs) with respect to every global tensor that requires grad: the gradient that
  must arrive at that tensor during the pass. A line tracer snapshots each tensor the
  first time a global name is bound to it, so that the test can tell tensors never
  modified in place (value at binding == value at the end) from the others. The probe's
  stdout is thrown away: its extra autograd.grad calls run the program's hooks too.

With GRADTRACE_REFERENCE_DEVICE=cuda each program runs inside `with torch.device("cuda")`,
as a gradtrace job asked for on that device does.

Non-finite floats are written as "nan", "inf", "-inf", as gradtrace's TensorData does.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import runpy
import sys
import traceback
from collections.abc import Iterator
from typing import Any

import numpy
import torch
import torch.nn as nn

DEVICE = os.environ.get("GRADTRACE_REFERENCE_DEVICE", "cpu")


NUMPY_PRINT_DEFAULTS = numpy.get_printoptions()


def on_device() -> Any:
    """The job's device, as gradtrace's session enters it around a program."""
    return torch.device(DEVICE) if DEVICE != "cpu" else contextlib.nullcontext()


def reset_torch() -> None:
    # One thread, as gradtrace runs a job: float32 sums (a conv's backward) are then
    # added in the same order on both sides.
    torch.set_num_threads(1)
    torch.set_grad_enabled(True)
    torch.set_default_dtype(torch.float32)
    torch.set_printoptions(profile="default")
    numpy.set_printoptions(**NUMPY_PRINT_DEFAULTS)
    # A program's torch.set_default_device(...) stays as a torch-function mode, through
    # which torch.autograd.grad dispatches to itself (the probe's wrapper would count
    # each pass twice): every program starts without one, as a gradtrace job does.
    torch.set_default_device(None)
    torch.manual_seed(0)
    random.seed(0)  # gradtrace seeds a job's random and numpy.random with its seed too
    numpy.random.seed(0)


def encode(value: Any) -> Any:
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def tensor_data(t: torch.Tensor | None) -> dict[str, Any] | None:
    if t is None:
        return None
    t = t.detach()
    if t.layout != torch.strided or t.is_complex():
        return {
            "shape": list(t.shape),
            "dtype": str(t.dtype).removeprefix("torch."),
            "values": None,
        }
    return {
        "shape": list(t.shape),
        "dtype": str(t.dtype).removeprefix("torch."),
        "values": encode(t.cpu().tolist()),
    }


def error_info(exc: BaseException, path: str) -> dict[str, Any]:
    line = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        if frame.f_code.co_filename == path:
            line = lineno
    if isinstance(exc, SyntaxError) and exc.filename == path:
        line = exc.lineno
    return {"type": type(exc).__name__, "message": str(exc), "line": line}


def public_globals(ns: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in ns.items() if not k.startswith("_")}


def run_plain(path: str) -> dict[str, Any]:
    reset_torch()
    out = io.StringIO()
    error = None
    ns: dict[str, Any] = {}
    # As `python program.py` runs it: a command line of no arguments (argparse reads it).
    sys.argv = [path]
    with contextlib.redirect_stdout(out), on_device():
        try:
            ns = runpy.run_path(path, run_name="__main__")
        except BaseException as exc:
            error = error_info(exc, path)
            # run_path gives the namespace back only on success; on failure, read it from
            # the innermost frame of the program itself.
            for frame, _lineno in traceback.walk_tb(exc.__traceback__):
                if frame.f_code.co_filename == path and frame.f_code.co_name == "<module>":
                    ns = dict(frame.f_globals)
    grads: dict[str, Any] = {}
    values: dict[str, Any] = {}
    modules: dict[str, Any] = {}
    for name, v in public_globals(ns).items():
        if isinstance(v, torch.Tensor):
            grads[name] = tensor_data(v.grad) if v.is_leaf or v.retains_grad else None
            values[name] = tensor_data(v)
        elif isinstance(v, nn.Module):
            for pname, p in v.named_parameters():
                modules[f"{name}.{pname}"] = tensor_data(p.grad)
    return {
        "stdout": out.getvalue(),
        "error": error,
        "grads": grads,
        "values": values,
        "module_grads": modules,
    }


class Probe:
    """Wraps torch.autograd.backward/grad while one program runs in `ns`."""

    def __init__(self, path: str, ns: dict[str, Any]) -> None:
        self.path = path
        self.ns = ns
        self.passes: list[dict[str, Any]] = []
        self.keep: list[Any] = []  # references, so that ids stay unique
        self.first_value: dict[int, Any] = {}
        self.orig_backward = torch.autograd.backward
        self.orig_grad = torch.autograd.grad
        self.depth = 0

    # -- the line tracer: value of each tensor when a global name first binds it --------
    def snapshot(self) -> None:
        for v in list(self.ns.values()):
            if isinstance(v, torch.Tensor) and id(v) not in self.first_value:
                self.keep.append(v)
                self.first_value[id(v)] = tensor_data(v)

    def tracer(self, frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename != self.path:
            return None
        self.snapshot()
        return self.local_tracer

    def local_tracer(self, frame: Any, event: str, arg: Any) -> Any:
        if event in ("line", "return"):
            self.snapshot()
        return self.local_tracer

    # -- the autograd wrappers ---------------------------------------------------------
    def program_line(self) -> int | None:
        f = sys._getframe(1)
        while f is not None:
            if f.f_code.co_filename == self.path:
                return f.f_lineno
            f = f.f_back
        return None

    def expected(self, kind: str, roots: Any, grad_outputs: Any, inputs: Any, retain: bool) -> None:
        record: dict[str, Any] = {
            "kind": kind,
            "line": self.program_line(),
            "retain_graph": retain,
            "grads": {},
            "skipped": None,
        }
        self.passes.append(record)
        if self.depth > 1:
            record["skipped"] = "nested pass"
            return
        if kind == "backward" and inputs is not None:
            record["skipped"] = "backward(inputs=...)"
            return
        if isinstance(roots, torch.Tensor):
            roots = [roots]
        roots = list(roots)
        if isinstance(grad_outputs, torch.Tensor):
            grad_outputs = [grad_outputs]
        if grad_outputs is None:
            grad_outputs = [None] * len(roots)
        grad_outputs = list(grad_outputs)
        names = []
        tensors = []
        for name, v in public_globals(self.ns).items():
            if isinstance(v, torch.Tensor) and v.requires_grad:
                names.append(name)
                tensors.append(v)
        if not tensors:
            return
        try:
            got = self.orig_grad(roots, tensors, grad_outputs, retain_graph=True, allow_unused=True)
        except Exception as exc:  # the real pass will fail the same way
            record["skipped"] = f"{type(exc).__name__}: {exc}"
            return
        input_ids = set()
        if inputs is not None:
            seq = [inputs] if isinstance(inputs, torch.Tensor) else list(inputs)
            input_ids = {id(t) for t in seq}
        for name, t, g in zip(names, tensors, got, strict=True):
            self.keep.append(t)
            hooked = bool(getattr(t, "_backward_hooks", None))
            record["grads"][name] = {
                "obj": id(t),
                "grad": tensor_data(g),
                "hooked": hooked,
                "is_input": id(t) in input_ids,
            }

    def backward(
        self,
        tensors: Any,
        grad_tensors: Any = None,
        retain_graph: Any = None,
        create_graph: bool = False,
        grad_variables: Any = None,
        inputs: Any = None,
    ) -> Any:
        # torch reads each of these into a tuple once: a generator is read here instead
        tensors, grad_tensors, inputs = once(tensors), once(grad_tensors), once(inputs)
        self.depth += 1
        try:
            self.expected(
                "backward",
                tensors,
                grad_tensors,
                inputs,
                bool(create_graph if retain_graph is None else retain_graph),
            )
            return self.orig_backward(
                tensors, grad_tensors, retain_graph, create_graph, inputs=inputs
            )
        finally:
            self.depth -= 1

    def grad(
        self,
        outputs: Any,
        inputs: Any,
        grad_outputs: Any = None,
        retain_graph: Any = None,
        create_graph: bool = False,
        **kwargs: Any,
    ) -> Any:
        outputs, inputs, grad_outputs = once(outputs), once(inputs), once(grad_outputs)
        self.depth += 1
        try:
            self.expected(
                "grad",
                outputs,
                grad_outputs,
                inputs,
                bool(create_graph if retain_graph is None else retain_graph),
            )
            return self.orig_grad(
                outputs,
                inputs,
                grad_outputs,
                retain_graph=retain_graph,
                create_graph=create_graph,
                **kwargs,
            )
        finally:
            self.depth -= 1


def once(value: Any) -> Any:
    """An iterator (a generator, `model.parameters()`) as the tuple torch reads it into."""
    return tuple(value) if isinstance(value, Iterator) else value


def run_probe(path: str) -> dict[str, Any]:
    reset_torch()
    with open(path, encoding="utf-8") as f:
        source = f.read()
    ns: dict[str, Any] = {"__name__": "__main__", "__file__": path}
    probe = Probe(path, ns)
    code = compile(source, path, "exec")  # trusted test programs, reference side only
    torch.autograd.backward = probe.backward
    torch.autograd.grad = probe.grad
    error = None
    sys.settrace(probe.tracer)
    try:
        with contextlib.redirect_stdout(io.StringIO()), on_device():
            exec(code, ns)  # trusted test programs, reference side only
    except BaseException as exc:
        error = type(exc).__name__
    finally:
        sys.settrace(None)
        torch.autograd.backward = probe.orig_backward
        torch.autograd.grad = probe.orig_grad
    probe.snapshot()
    final = public_globals(ns)
    # Keep, per pass, only the names still bound at the end to the very tensor the pass
    # saw: gradtrace's `variables` name the final binding.
    passes = []
    for rec in probe.passes:
        grads = {}
        for name, info in rec["grads"].items():
            if id(final.get(name)) == info["obj"]:
                grads[name] = {k: v for k, v in info.items() if k != "obj"}
        passes.append({**rec, "grads": grads})
    unmodified = {}
    for name, v in final.items():
        if isinstance(v, torch.Tensor):
            first = probe.first_value.get(id(v))
            now = tensor_data(v)
            if first is not None and first == now:
                unmodified[name] = now
    return {"error": error, "passes": passes, "unmodified_values": unmodified}


def main() -> None:
    out_path, *paths = sys.argv[1:]
    results: dict[str, Any] = {}
    for path in paths:
        entry: dict[str, Any] = {}
        try:
            entry["plain"] = run_plain(path)
            entry["probe"] = run_probe(path)
        except BaseException as exc:  # the runner itself broke: say so, keep going
            entry["runner_error"] = f"{type(exc).__name__}: {exc}"
        results[path] = entry
    reset_torch()
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main()
