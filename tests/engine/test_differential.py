"""Differential tests: every program through gradtrace and through CPython + torch.

Printed output (object addresses masked), the error type where a program fails, and the
`.grad` of every tensor the program names must be the same on both sides.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from engine_support import (
    error_text,
    mask_addresses,
    program_params,
    reference_entry,
    run_gradtrace,
    tensor_node,
    tensordata_diff,
)

PROGRAMS = program_params()


def test_corpus_is_big_enough() -> None:
    ours = [p for p in PROGRAMS if "/" not in p.id]
    assert len(ours) >= 40


@pytest.mark.parametrize("path", PROGRAMS)
def test_stdout(path: Path, reference: dict[str, Any]) -> None:
    ref = reference_entry(reference, path)["plain"]
    trace = run_gradtrace(path)
    assert mask_addresses(trace.stdout) == mask_addresses(ref["stdout"]), error_text(trace)


@pytest.mark.parametrize("path", PROGRAMS)
def test_outcome(path: Path, reference: dict[str, Any]) -> None:
    ref = reference_entry(reference, path)["plain"]
    trace = run_gradtrace(path)
    if ref["error"] is None:
        assert trace.ok, error_text(trace)
        assert trace.error is None
    else:
        assert not trace.ok, f"expected {ref['error']['type']}: {ref['error']['message']}"
        assert trace.error is not None
        assert trace.error.type == ref["error"]["type"], error_text(trace)
        assert trace.error.message


@pytest.mark.parametrize("path", PROGRAMS)
def test_error_line(path: Path, reference: dict[str, Any]) -> None:
    ref = reference_entry(reference, path)["plain"]
    if ref["error"] is None or ref["error"]["line"] is None:
        pytest.skip("the program does not fail")
    trace = run_gradtrace(path)
    assert trace.error is not None, "gradtrace reports no error"
    assert trace.error.line == ref["error"]["line"], error_text(trace)


@pytest.mark.parametrize("path", PROGRAMS)
def test_named_tensor_grads(path: Path, reference: dict[str, Any]) -> None:
    ref = reference_entry(reference, path)["plain"]
    trace = run_gradtrace(path)
    problems = []
    for name, want in ref["grads"].items():
        node = tensor_node(trace, name)
        if node is None:
            problems.append(f"{name}: not in trace.variables")
            continue
        if node.kind != "tensor":
            problems.append(f"{name}: variables points at a {node.kind} node")
            continue
        diff = tensordata_diff(node.grad, want)
        if diff:
            problems.append(f"{name}.grad: {diff}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", PROGRAMS)
def test_variables_are_exactly_the_named_tensors(path: Path, reference: dict[str, Any]) -> None:
    """`variables` holds every global name bound to a tensor, and beyond those only the
    parameters of global nn.Modules (as `module.param`)."""
    ref = reference_entry(reference, path)["plain"]
    trace = run_gradtrace(path)
    missing = sorted(set(ref["grads"]) - set(trace.variables))
    extra = sorted(set(trace.variables) - set(ref["grads"]) - set(ref["module_grads"]))
    assert not missing and not extra, f"missing {missing}, extra {extra}"


@pytest.mark.parametrize("path", PROGRAMS)
def test_module_parameter_grads(path: Path, reference: dict[str, Any]) -> None:
    """For an nn.Module bound to a global name, each parameter's `.grad`, found as the
    tensor node named `module.param` (how the program itself would name it)."""
    ref = reference_entry(reference, path)["plain"]
    if not ref["module_grads"]:
        pytest.skip("no nn.Module globals")
    trace = run_gradtrace(path)
    problems = []
    for name, want in ref["module_grads"].items():
        node = tensor_node(trace, name)
        if node is None:
            problems.append(f"{name}: no tensor node of that name")
            continue
        diff = tensordata_diff(node.grad, want)
        if diff:
            problems.append(f"{name}.grad: {diff}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", PROGRAMS)
def test_deterministic(path: Path) -> None:
    """The same source and seed give the same trace (outcome, output, graph size)."""
    import gradtrace

    first = run_gradtrace(path)
    again = gradtrace.run(path.read_text(encoding="utf-8"), seed=0)
    assert mask_addresses(again.stdout) == mask_addresses(first.stdout)
    assert again.ok == first.ok
    assert len(again.nodes) == len(first.nodes)
    assert len(again.passes) == len(first.passes)
