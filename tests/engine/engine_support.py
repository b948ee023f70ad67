"""Helpers for the engine's tests: the program corpus, running gradtrace, and comparing
gradtrace's TensorData with the CPython reference's values (tests/engine/conftest.py runs
the reference)."""

from __future__ import annotations

import gc
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PROGRAMS = REPO / "tests" / "programs"
TUTORIALS = PROGRAMS / "tutorials"
HOSTILE = REPO / "tests" / "hostile"
SHARED_PROGRAMS = REPO.parent / "shared" / "programs"
RUNNER = HERE / "reference_runner.py"

REL_TOL = 1e-6
ABS_TOL = 1e-7

ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def program_files() -> list[Path]:
    """Every differential program: ours, then ../shared/programs/** where it exists."""
    files = sorted(PROGRAMS.glob("*.py"))
    if SHARED_PROGRAMS.is_dir():
        files += sorted(SHARED_PROGRAMS.rglob("*.py"))
    return files


def tutorial_files() -> list[Path]:
    """The corpus of real tutorial programs (issue 16), kept apart from the seeds'."""
    return sorted(TUTORIALS.glob("t*.py"))


def program_id(path: Path) -> str:
    if path.is_relative_to(SHARED_PROGRAMS):
        return "shared/" + path.relative_to(SHARED_PROGRAMS).as_posix()
    return path.relative_to(PROGRAMS).as_posix()


def program_params() -> list[Any]:
    return [pytest.param(p, id=program_id(p)) for p in program_files()]


def mask_addresses(text: str) -> str:
    return ADDRESS.sub("0x…", text)


def reference_entry(reference: dict[str, Any], path: Path) -> dict[str, Any]:
    entry = reference[str(path)]
    if "runner_error" in entry:
        pytest.fail(f"the reference runner broke on {path}: {entry['runner_error']}")
    return entry  # type: ignore[no-any-return]


# -- gradtrace --------------------------------------------------------------------------

_TRACE_CACHE: dict[tuple[str, int, str], Any] = {}


def run_gradtrace(path: Path, seed: int = 0, device: str = "cpu") -> Any:
    """gradtrace.run of a program file, memoised per test process (traces are pure)."""
    import gradtrace

    key = (str(path), seed, device)
    if key not in _TRACE_CACHE:
        source = path.read_text(encoding="utf-8")
        _TRACE_CACHE[key] = gradtrace.run(source, seed=seed, device=device)
    return _TRACE_CACHE[key]


def nodes_by_id(trace: Any) -> dict[str, Any]:
    return {n.id: n for n in trace.nodes}


def tensor_node(trace: Any, name: str) -> Any | None:
    """The tensor node a name refers to: `variables` first, else a node of that name."""
    nodes = nodes_by_id(trace)
    nid = trace.variables.get(name)
    if nid is not None:
        return nodes.get(nid)
    found = [n for n in trace.nodes if n.kind == "tensor" and n.name == name]
    return found[-1] if found else None


def error_text(trace: Any) -> str:
    if trace.error is None:
        return "no error"
    e = trace.error
    return f"{e.type} at line {e.line}: {e.message}"


# -- comparing values -------------------------------------------------------------------


def _number(v: Any) -> float | str:
    if isinstance(v, str):
        return v
    return float(v)


def values_diff(got: Any, want: Any, where: str = "") -> str | None:
    """None where `got` equals `want` (nested lists; non-finite as strings), within
    REL_TOL relative (ABS_TOL absolute near zero); otherwise the first difference."""
    if isinstance(want, list) or isinstance(got, list):
        if not (isinstance(want, list) and isinstance(got, list)):
            return f"{where}: {got!r} vs {want!r}"
        if len(got) != len(want):
            return f"{where}: length {len(got)} vs {len(want)}"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            d = values_diff(g, w, f"{where}[{i}]")
            if d:
                return d
        return None
    g, w = _number(got), _number(want)
    if isinstance(g, str) or isinstance(w, str):
        return None if g == w else f"{where}: {got!r} vs {want!r}"
    if math.isclose(g, w, rel_tol=REL_TOL, abs_tol=ABS_TOL):
        return None
    return f"{where}: {got!r} vs {want!r}"


def tensordata_diff(got: Any, want: dict[str, Any] | None) -> str | None:
    """Compare a gradtrace TensorData (or None) with a reference tensor dump (or None)."""
    if want is None or got is None:
        if want is None and got is None:
            return None
        return f"{'None' if got is None else 'a tensor'} where the reference has " + (
            "None" if want is None else "a tensor"
        )
    if list(got.shape) != want["shape"]:
        return f"shape {list(got.shape)} vs {want['shape']}"
    if got.dtype != want["dtype"]:
        return f"dtype {got.dtype} vs {want['dtype']}"
    if want["values"] is None:
        return None
    if got.values is None:
        return "values null where the reference has them" if got.numel <= 4096 else None
    return values_diff(got.values, want["values"])


def grad_problems(trace: Any, wanted: dict[str, Any]) -> list[str]:
    """How the `.grad` of each named tensor or module parameter in `trace` differs from
    the reference's dump of it (`wanted`: name to tensor dump or None)."""
    problems = []
    for name, want in wanted.items():
        node = tensor_node(trace, name)
        if node is None or node.kind != "tensor":
            problems.append(f"{name}: no tensor node of that name")
            continue
        diff = tensordata_diff(node.grad, want)
        if diff:
            problems.append(f"{name}.grad: {diff}")
    return problems


def cyclic_garbage(
    call: Callable[[], Any], belongs: Callable[[Any], bool], describe: Callable[[Any], str]
) -> list[str]:
    """What of `call()`'s making a collection finds once its result is dropped: the objects
    `belongs` picks among those only the cyclic GC would free, described."""
    call()  # torch's and the interpreter's first-use caches are made outside the count
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        result = call()
        del result
        gc.collect()
        return [describe(o) for o in gc.garbage if belongs(o)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
