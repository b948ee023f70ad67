"""A leaf that requires grad over a program's life (trace/leaves.py): one node, whose
running `.grad` and whose updates outside autograd are recorded where they happen.
Every expected number is computed here by torch itself, running the same steps."""

from __future__ import annotations

from typing import Any

import torch

import gradtrace
from gradtrace.trace.models import BackwardTensorEvent, TensorNode, Trace, UpdateEvent


def values(data: Any) -> torch.Tensor:
    assert data is not None and data.values is not None
    return torch.tensor(data.values, dtype=torch.float64)


def node_named(trace: Trace, name: str) -> TensorNode:
    return next(n for n in trace.nodes if isinstance(n, TensorNode) and n.name == name)


def updates(trace: Trace, node: str, what: str) -> list[UpdateEvent]:
    return [
        e
        for e in trace.timeline
        if isinstance(e, UpdateEvent) and e.node == node and e.what == what
    ]


ACCUMULATION = """
import torch
x = torch.tensor(3.0, requires_grad=True)
loss = (x + 1 - 2 * x) ** 2
loss.backward(retain_graph=True)
loss.backward()
x.grad.zero_()
print(x.grad)
x.grad = None
"""


def test_each_pass_shows_the_running_grad_and_zero_resets_it() -> None:
    x = torch.tensor(3.0, requires_grad=True)
    loss = (x + 1 - 2 * x) ** 2
    loss.backward(retain_graph=True)
    after_first = x.grad.clone()  # type: ignore[union-attr]
    loss.backward()
    after_second = x.grad.clone()  # type: ignore[union-attr]

    trace = gradtrace.run(ACCUMULATION)
    assert trace.ok, trace.error
    leaf = node_named(trace, "x")
    arrivals = [
        e for e in trace.timeline if isinstance(e, BackwardTensorEvent) and e.node == leaf.id
    ]
    assert len(arrivals) == 2
    # The first pass into a None .grad: torch adopted the gradient, the event carries it.
    assert arrivals[0].accumulated is None
    assert values(arrivals[0].grad).item() == after_first.item()
    assert values(arrivals[1].accumulated).item() == after_second.item()
    zeroed, cleared = updates(trace, leaf.id, "grad")
    assert values(zeroed.value).item() == 0.0 and zeroed.line == 7
    assert cleared.value is None
    # The zero_() is shown before the print that reads it.
    k = trace.timeline.index(zeroed)
    assert trace.timeline[k + 1].phase == "print"


MANUAL_SGD = """
import torch
torch.manual_seed(0)
X = torch.randn(8, 3)
y = torch.randn(8, 1)
w = torch.randn(3, 1, requires_grad=True)
for i in range(3):
    loss = ((X @ w - y) ** 2).mean()
    loss.backward()
    w.data -= 0.1 * w.grad.data
    w.grad.data.zero_()
"""


def test_a_data_update_is_an_update_of_the_one_parameter_node() -> None:
    torch.manual_seed(0)
    X = torch.randn(8, 3)
    y = torch.randn(8, 1)
    w = torch.randn(3, 1, requires_grad=True)
    stepped, grads = [], []
    for _ in range(3):
        loss = ((X @ w - y) ** 2).mean()
        loss.backward()
        grads.append(w.grad.clone())  # type: ignore[union-attr]
        w.data -= 0.1 * w.grad.data  # type: ignore[union-attr]
        stepped.append(w.detach().clone())
        w.grad.data.zero_()  # type: ignore[union-attr]

    trace = gradtrace.run(MANUAL_SGD)
    assert trace.ok, trace.error
    ws = [n for n in trace.nodes if isinstance(n, TensorNode) and n.name == "w"]
    assert len(ws) == 1
    leaf = ws[0]
    # No node for the optimizer's arithmetic (w.data, lr * w.grad, the zeroed grad).
    tensors = [n for n in trace.nodes if isinstance(n, TensorNode)]
    assert not [n for n in tensors if n.label and (".data" in n.label or ".grad" in n.label)]
    assert len(tensors) == 3 + 3 * 4  # X, y, w; X @ w, - y, ** 2, mean() each iteration
    # Every AccumulateGrad fills that node, so it is there during each pass.
    accumulators = [n for n in trace.nodes if n.kind == "function" and n.op == "AccumulateGrad"]
    assert [a.tensor for a in accumulators] == [leaf.id]
    steps = updates(trace, leaf.id, "value")
    assert len(steps) == 3
    for event, want, grad in zip(steps, stepped, grads, strict=True):
        assert torch.allclose(values(event.value), want.double())
        assert torch.allclose(values(event.grad), grad.double())
        assert event.line == 10 and event.label == "w.data -= 0.1 * w.grad.data"
    assert len(updates(trace, leaf.id, "grad")) == 3


ADAM = """
import torch
from torch import nn
torch.manual_seed(0)
x = torch.linspace(-1, 1, 16).unsqueeze(1)
y = 3 * x + 2
model = nn.Linear(1, 1)
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
for step in range(3):
    optimizer.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    optimizer.step()
"""


def test_an_optimizer_step_updates_each_parameter_with_its_numbers() -> None:
    torch.manual_seed(0)
    x = torch.linspace(-1, 1, 16).unsqueeze(1)
    y = 3 * x + 2
    model = torch.nn.Linear(1, 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
    weights = []
    for _ in range(3):
        optimizer.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        optimizer.step()
        weights.append(model.weight.detach().clone())

    trace = gradtrace.run(ADAM)
    assert trace.ok, trace.error
    weight = node_named(trace, "model.weight")
    assert (
        len([n for n in trace.nodes if isinstance(n, TensorNode) and n.name == "model.weight"]) == 1
    )
    steps = updates(trace, weight.id, "value")
    assert [e.line for e in steps] == [13, 13, 13]
    for event, want in zip(steps, weights, strict=True):
        assert torch.allclose(values(event.value), want.double())
    # zero_grad() sets .grad to None (torch's default) from the second step on.
    cleared = updates(trace, weight.id, "grad")
    assert [e.value for e in cleared] == [None, None] and {e.line for e in cleared} == {10}


def test_a_forward_use_of_a_parameter_after_its_update_is_the_same_node() -> None:
    trace = gradtrace.run(MANUAL_SGD)
    leaf = node_named(trace, "w")
    # Each iteration's matmul reads w: its MmBackward0 is fed by w's AccumulateGrad.
    accumulate = next(n for n in trace.nodes if n.kind == "function" and n.op == "AccumulateGrad")
    consumers = [e.target for e in trace.edges if e.source == accumulate.id]
    assert len(consumers) == 3
    assert [e.source for e in trace.edges if e.target == accumulate.id] == [leaf.id]


def test_training_steps_count_passes_followed_by_an_update() -> None:
    assert gradtrace.run(ADAM).training_steps == 3
    assert gradtrace.run(MANUAL_SGD).training_steps == 3
    # Two backward passes with no update between them are no training loop.
    accumulation = gradtrace.run(ACCUMULATION)
    assert accumulation.iterations == 2 and accumulation.training_steps == 0
