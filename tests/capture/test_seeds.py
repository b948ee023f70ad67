"""capture() of the seed programs run as ordinary Python gives the graph, values and
gradients that gradtrace.run records for the same program through its evaluator."""

from __future__ import annotations

import contextlib
import io
import runpy
from pathlib import Path
from typing import Any

import pytest
import torch
from graphs import ops, pass_graph, same_data

import gradtrace
from gradtrace.trace.models import TensorNode

PROGRAMS = sorted((Path(__file__).parent / "programs").glob("*.py"))


def _run_as_python(path: Path) -> dict[str, Any]:
    torch.manual_seed(0)
    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(path), run_name="__main__")


def _params(namespace: dict[str, Any]) -> dict[str, torch.Tensor]:
    """Leaves named as gradtrace.run names them: globals, and `model.param` of modules."""
    named: dict[str, torch.Tensor] = {}
    for name, value in namespace.items():
        if isinstance(value, torch.nn.Module):
            named.update({f"{name}.{p}": t for p, t in value.named_parameters()})
        elif isinstance(value, torch.Tensor) and value.is_leaf and value.requires_grad:
            named[name] = value
    return named


@pytest.fixture(scope="module", params=PROGRAMS, ids=[p.stem for p in PROGRAMS])
def traces(request: pytest.FixtureRequest) -> tuple[gradtrace.Trace, gradtrace.Trace]:
    path: Path = request.param
    # The program, then the backward pass whose graph capture() records.
    ran = gradtrace.run(path.read_text() + "\nloss.backward()\n", seed=0)
    assert ran.ok, ran.error
    namespace = _run_as_python(path)
    with contextlib.redirect_stdout(io.StringIO()):  # the programs' own hooks print
        captured = gradtrace.capture(namespace["loss"], params=_params(namespace))
    return ran, captured


def test_same_nodes_and_edges(traces: tuple[gradtrace.Trace, gradtrace.Trace]) -> None:
    ran, captured = traces
    expected = pass_graph(ran, ran.passes[-1].index)
    got = pass_graph(captured, 0)
    assert ops(got) == ops(expected)
    assert set(got.keys.values()) == set(expected.keys.values())
    assert got.edges == expected.edges


def test_same_leaves(traces: tuple[gradtrace.Trace, gradtrace.Trace]) -> None:
    ran, captured = traces
    ran_nodes = {n.id: n for n in ran.nodes}
    expected = pass_graph(ran, ran.passes[-1].index)
    got = pass_graph(captured, 0)
    assert got.leaves.keys() == expected.leaves.keys()
    for key, leaf in got.leaves.items():
        # The same leaf: gradtrace.run names it by its global (`model.weight`) and its
        # attribute (`weight`); capture by the params given, built from the globals.
        assert leaf.name is not None and leaf.name in ran.variables, key
        assert (expected.leaves[key].name or "").split(".")[-1] == leaf.name.split(".")[-1]
        assert captured.variables[leaf.name] == leaf.id
        # Its value now: the node `variables` names is the tensor's newest version.
        want = ran_nodes[ran.variables[leaf.name]]
        assert isinstance(want, TensorNode)
        assert (leaf.shape, leaf.dtype, leaf.requires_grad, leaf.is_leaf) == (
            want.shape,
            want.dtype,
            want.requires_grad,
            want.is_leaf,
        )
        assert same_data(leaf.value, want.value), key


def test_same_gradients_in_the_same_order(
    traces: tuple[gradtrace.Trace, gradtrace.Trace],
) -> None:
    ran, captured = traces
    expected = pass_graph(ran, ran.passes[-1].index).events
    got = pass_graph(captured, 0).events
    assert [k for k, _ in got] == [k for k, _ in expected]
    for (key, event), (_, want) in zip(got, expected):
        assert len(event.grad_outputs) == len(want.grad_outputs), key
        assert len(event.grad_inputs) == len(want.grad_inputs), key
        for a, b in zip(event.grad_outputs, want.grad_outputs):
            assert same_data(a, b), key
        for a, b in zip(event.grad_inputs, want.grad_inputs):
            assert same_data(a, b), key
