"""capture() builds its Trace as objects (trace/objects.py), never as JSON read back: the
objects must be what validating their own JSON gives, field by field, and hold each
tensor's numbers as torch's tolist() does."""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

import gradtrace
from gradtrace.trace.models import TensorNode, Trace


def _captured() -> tuple[Trace, nn.Module]:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2))
    loss = model(torch.randn(4, 3)).pow(2).mean()
    return gradtrace.capture(loss, params=model), model


def test_captured_objects_are_their_validated_json() -> None:
    trace, _ = _captured()
    assert type(trace) is Trace
    again = Trace.model_validate_json(trace.model_dump_json())
    # Exact: the objects' floats are float64 numbers, written and read back unchanged.
    assert again.model_dump() == trace.model_dump()
    # Every field in the model's order too (objects.py trusts the writer's order).
    assert again.model_dump_json() == trace.model_dump_json()
    assert again.model_fields_set == trace.model_fields_set
    assert again.nodes[0].model_fields_set == trace.nodes[0].model_fields_set


def test_captured_values_are_the_tensors_own_numbers() -> None:
    trace, model = _captured()
    weight = next(n for n in trace.nodes if isinstance(n, TensorNode) and n.name == "0.weight")
    expected: Any = model[0].weight.detach().tolist()
    assert weight.value.values == expected
    assert weight.grad is None  # capture leaves .grad alone, and the trace says so


def test_the_trace_json_keeps_the_models_key_order() -> None:
    trace, _ = _captured()
    node = next(n for n in trace.nodes if isinstance(n, TensorNode))
    assert list(node.model_dump(by_alias=True)) == list(TensorNode.model_fields)
