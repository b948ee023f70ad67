"""capture() on models built here: every gradient is torch.autograd.grad's, and the
user's tensors, `.grad` attributes, hooks and graph are as they were."""

from __future__ import annotations

import gc
import subprocess
import sys
import warnings
from collections.abc import Callable
from typing import Any

import pytest
import torch
from graphs import array
from torch import nn
from torch.autograd.graph import GradientEdge
from torch.overrides import TorchFunctionMode

import gradtrace
from gradtrace.capture import track_modules
from gradtrace.trace.models import BackwardFunctionEvent, FunctionNode, TensorNode, Trace


class Outputs(TorchFunctionMode):
    """Every tensor an op returns during the forward, to ask autograd.grad about."""

    def __init__(self) -> None:
        super().__init__()
        self.tensors: list[torch.Tensor] = []

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        out = func(*args, **(kwargs or {}))
        for t in out if isinstance(out, (tuple, list)) else (out,):
            if isinstance(t, torch.Tensor) and t.grad_fn is not None:
                self.tensors.append(t)
        return out


def mlp() -> tuple[nn.Module, Callable[[nn.Module], torch.Tensor]]:
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
    x, y = torch.randn(5, 4), torch.randint(0, 3, (5,))
    return model, lambda m: nn.functional.cross_entropy(m(x), y)


class SmallCNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.head = nn.Linear(4 * 4 * 4, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.bn(self.conv(x)))
        return self.head(h.flatten(1))


def cnn() -> tuple[nn.Module, Callable[[nn.Module], torch.Tensor]]:
    x = torch.randn(3, 2, 4, 4)
    return SmallCNN(), lambda m: m(x).pow(2).mean()


class Recurrent(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.cell = nn.RNNCell(3, 5)
        self.out = nn.Linear(5, 1)

    def forward(self, xs: torch.Tensor) -> torch.Tensor:
        h = torch.zeros(xs.shape[1], 5)
        for x in xs:  # the same cell, step after step
            h = self.cell(x, h)
        return self.out(h)


def rnn() -> tuple[nn.Module, Callable[[nn.Module], torch.Tensor]]:
    xs, target = torch.randn(4, 2, 3), torch.randn(2, 1)
    return Recurrent(), lambda m: nn.functional.mse_loss(m(xs), target)


MODELS = {"mlp": mlp, "cnn": cnn, "rnn": rnn}


def _function_events(trace: Trace) -> dict[str, BackwardFunctionEvent]:
    return {e.node: e for e in trace.timeline if isinstance(e, BackwardFunctionEvent)}


@pytest.fixture(params=list(MODELS))
def setup(request: pytest.FixtureRequest) -> tuple[nn.Module, torch.Tensor, list[torch.Tensor]]:
    torch.manual_seed(0)
    model, forward = MODELS[request.param]()
    recorder = Outputs()
    with track_modules(model), recorder:
        loss = forward(model)
    return model, loss, recorder.tensors


def test_every_gradient_is_autograd_grads(
    setup: tuple[nn.Module, torch.Tensor, list[torch.Tensor]],
) -> None:
    model, loss, _ = setup
    trace = gradtrace.capture(loss, params=model)
    nodes = {n.id: n for n in trace.nodes}
    events = _function_events(trace)
    by_seq = {n.sequence_nr: n for n in trace.nodes if isinstance(n, FunctionNode)}
    # Every Node ran once, in one pass, and the root got d loss/d loss = 1.
    assert set(events) == {n.id for n in trace.nodes if isinstance(n, FunctionNode)}
    root = nodes[trace.passes[0].root or ""]
    assert isinstance(root, TensorNode) and root.role == "output"
    # Each leaf: the gradient autograd.grad gives for that parameter.
    named = dict(model.named_parameters())
    expected = torch.autograd.grad(loss, list(named.values()), retain_graph=True)
    for (name, _), want in zip(named.items(), expected):
        leaf = nodes[trace.variables[name]]
        assert isinstance(leaf, TensorNode) and leaf.name == name
        fn = next(n for n in trace.nodes if isinstance(n, FunctionNode) and n.tensor == leaf.id)
        got = events[fn.id].grad_outputs[0]
        assert got is not None
        torch.testing.assert_close(torch.from_numpy(array(got)).float(), want)
    # Every other Node: what reached each of its outputs is autograd.grad at that edge.
    checked = 0
    for fn in _nodes_of(loss):
        node = by_seq[fn._sequence_nr()]
        assert node.op == type(fn).__name__
        for k, got in enumerate(events[node.id].grad_outputs):
            edge = GradientEdge(fn, k)
            (want,) = torch.autograd.grad(loss, edge, retain_graph=True, allow_unused=True)
            if want is None:
                assert got is None, node.op
                continue
            assert got is not None, node.op
            torch.testing.assert_close(torch.from_numpy(array(got)).float(), want)
            checked += 1
    assert checked >= len(by_seq) - len(named)


def _nodes_of(root: torch.Tensor) -> list[Any]:
    """The Nodes of the graph of `root` other than AccumulateGrad, by walking it here."""
    found: dict[int, Any] = {}
    stack = [root.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or id(fn) in found or hasattr(fn, "variable"):
            continue
        found[id(fn)] = fn
        stack.extend(n for n, _ in fn.next_functions)
    return list(found.values())


def test_the_users_tensors_are_left_as_they_were(
    setup: tuple[nn.Module, torch.Tensor, list[torch.Tensor]],
) -> None:
    model, loss, outputs = setup
    params = list(model.parameters())
    # Some gradients already there, some None; one intermediate that retains its grad.
    for p in params[::2]:
        p.grad = torch.randn_like(p)
    before = [(p.grad, None if p.grad is None else p.grad.clone()) for p in params]
    hidden = outputs[len(outputs) // 2]
    hidden.retain_grad()
    hooks = [(t._backward_hooks, t.grad_fn) for t in [*params, loss]]

    first = gradtrace.capture(loss, params=model)
    second = gradtrace.capture(loss, params=model)

    for p, (grad, copy) in zip(params, before):
        assert p.grad is grad
        if copy is not None:
            assert torch.equal(p.grad, copy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # reading .grad of a non-leaf warns
        assert hidden.grad is None and loss.grad is None
    assert [(t._backward_hooks, t.grad_fn) for t in [*params, loss]] == hooks
    # No hook left behind: a hook would keep its pass (and through it the recorder) alive.
    gc.collect()
    assert not [o for o in gc.get_objects() if type(o).__name__ == "_GradPass"]
    # The same events a second time, then the user's own backward still works.
    assert [e.node for e in first.timeline] == [e.node for e in second.timeline]
    expected = torch.autograd.grad(loss, params, retain_graph=True)
    loss.backward()
    for p, (_, copy), want in zip(params, before, expected):
        assert p.grad is not None
        torch.testing.assert_close(p.grad, want if copy is None else copy + want)
    assert hidden.grad is not None


def test_nodes_are_grouped_by_module(
    setup: tuple[nn.Module, torch.Tensor, list[torch.Tensor]],
) -> None:
    model, loss, _ = setup
    trace = gradtrace.capture(loss, params=model)
    groups = {n.module for n in trace.nodes} - {None}
    parts = {name for name, m in model.named_modules() if name and not list(m.children())}
    assert groups == parts
    for node in trace.nodes:
        if isinstance(node, TensorNode) and node.name is not None:
            assert node.module == node.name.rpartition(".")[0]
    for layer in ("0", "2", "head", "out"):
        made = {n.op for n in trace.nodes if isinstance(n, FunctionNode) and n.module == layer}
        assert not made or "AddmmBackward0" in made
    assert all(not m._forward_hooks and not m._forward_pre_hooks for m in model.modules())


def test_without_backward_there_are_no_backward_events() -> None:
    w = torch.randn(3, requires_grad=True)
    trace = gradtrace.capture((w * 2).sum(), backward=False, params={"w": w})
    assert trace.passes == [] and all(e.phase == "forward" for e in trace.timeline)
    assert {n.op for n in trace.nodes if isinstance(n, FunctionNode)} == {
        "SumBackward0",
        "MulBackward0",
        "AccumulateGrad",
    }


def test_a_freed_graph_is_explained() -> None:
    w = torch.randn(3, requires_grad=True)
    loss = w.exp().sum()
    loss.backward()
    with pytest.raises(RuntimeError, match="already freed"):
        gradtrace.capture(loss)
    assert len(gradtrace.capture(loss, backward=False).nodes) == 5  # loss, w and 3 Nodes


def test_a_tensor_without_a_graph_is_refused() -> None:
    with pytest.raises(ValueError, match="no autograd graph"):
        gradtrace.capture(torch.ones(2))


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_values_are_copied_to_the_cpu() -> None:
    torch.manual_seed(0)
    model = nn.Linear(3, 2).cuda()
    loss = model(torch.randn(4, 3, device="cuda")).square().mean()
    trace = gradtrace.capture(loss, params=model)
    assert trace.device.startswith("cuda")
    events = _function_events(trace)
    nodes = {n.id: n for n in trace.nodes}
    expected = torch.autograd.grad(loss, list(model.parameters()), retain_graph=True)
    for (name, _), want in zip(model.named_parameters(), expected):
        leaf = nodes[trace.variables[name]]
        fn = next(n for n in trace.nodes if isinstance(n, FunctionNode) and n.tensor == leaf.id)
        got = events[fn.id].grad_outputs[0]
        assert got is not None
        torch.testing.assert_close(torch.from_numpy(array(got)).float(), want.cpu())
    assert all(p.grad is None for p in model.parameters())


RETAINED_BEFORE_AND_AFTER = """
import warnings
import torch
import gradtrace

x = torch.ones(3, requires_grad=True)
before = x * 2
before.retain_grad()  # before gradtrace ever looked: found by the first capture's scan
loss = (before * before).sum()
gradtrace.capture(loss)
after = before + 1
after.retain_grad()  # after: seen by retain_grad itself
loss2 = (after * after).sum()
gradtrace.capture(loss2)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    assert before.grad is None and after.grad is None, (before.grad, after.grad)
loss2.backward()
assert torch.equal(after.grad, 2 * (after.detach())), after.grad
print("ok")
"""


def test_retained_tensors_are_left_alone_whenever_they_asked() -> None:
    done = subprocess.run(
        [sys.executable, "-c", RETAINED_BEFORE_AND_AFTER], capture_output=True, text=True
    )
    assert done.stdout == "ok\n", done.stderr[-2000:]
