"""What a backward pass does beyond gradients (trace/backward_steps.py): the saved tensors
torch frees, the Function a failing pass raised in, and the program's lines the engine runs
(hooks, a custom Function's backward). Each expectation is asked of torch itself, running
the same program with hooks of its own."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
import torch

import gradtrace
from gradtrace.trace.backward_steps import LINES_PER_PASS
from gradtrace.trace.models import (
    BackwardErrorEvent,
    BackwardFunctionEvent,
    FreedEvent,
    FunctionNode,
    LineEvent,
    Trace,
)


def ops(trace: Trace) -> dict[str, str]:
    return {n.id: n.op for n in trace.nodes if isinstance(n, FunctionNode)}


def of_kind(trace: Trace, kind: type[Any]) -> list[Any]:
    return [e for e in trace.timeline if isinstance(e, kind)]


def line_of(source: str, text: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), 1) if text in line)


def watch(root: torch.Tensor) -> tuple[list[str], list[Any]]:
    """Torch's own account of a pass: the Nodes entered (pre-hooks) and every Node."""
    entered: list[str] = []
    nodes: list[Any] = []
    stack, seen = [root.grad_fn], set()
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        nodes.append(fn)
        fn.register_prehook(lambda g, fn=fn: entered.append(type(fn).__name__))
        stack.extend(n for n, _ in fn.next_functions)
    return entered, nodes


def freed_by_torch(nodes: list[Any]) -> set[str]:
    """The Nodes whose saved tensors torch refuses to give back."""
    freed = set()
    for fn in nodes:
        names = [n for n in dir(fn) if n.startswith("_saved_")]
        try:
            if isinstance(fn, torch.autograd.function.BackwardCFunction):
                fn.saved_tensors  # noqa: B018
            for name in names:
                getattr(fn, name)
        except RuntimeError as exc:
            assert "freed" in str(exc)
            freed.add(type(fn).__name__)
    return freed


DOUBLE = """
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x * x
z = y.exp()
w = z + 1
w.backward()
w.backward()
"""


def test_a_second_backward_fails_at_the_node_torch_raised_in_with_its_message() -> None:
    x = torch.tensor(2.0, requires_grad=True)
    w = (x * x).exp() + 1
    entered, nodes = watch(w)
    w.backward()
    freed = freed_by_torch(nodes)
    entered.clear()
    with pytest.raises(RuntimeError) as raised:
        w.backward()
    failing = entered[-1]  # entered last, never left: where torch raised

    trace = gradtrace.run(DOUBLE)
    assert not trace.ok and trace.error is not None
    names = ops(trace)
    freed_events = of_kind(trace, FreedEvent)
    assert [e.pass_ for e in freed_events] == [0]
    assert {names[n] for n in freed_events[0].nodes} == freed == {"ExpBackward0", "MulBackward0"}
    (error,) = of_kind(trace, BackwardErrorEvent)
    assert error.pass_ == 1
    assert names[error.node] == failing == "ExpBackward0"
    assert error.message == str(raised.value) == trace.error.message
    assert error.type == "RuntimeError"
    # The freed step ends the first pass; the error is the last step of the second.
    steps = trace.timeline
    assert steps.index(freed_events[0]) < steps.index(error) == len(steps) - 1
    ran_second = [names[e.node] for e in of_kind(trace, BackwardFunctionEvent) if e.pass_ == 1]
    assert ran_second == entered[:-1] == ["AddBackward0"]


RETAINED = """
import torch
x = torch.tensor(2.0, requires_grad=True)
w = (x * x).exp() + 1
w.backward(retain_graph=True)
w.backward()
print(x.grad)
"""


def test_retain_graph_frees_nothing_and_the_second_pass_runs() -> None:
    x = torch.tensor(2.0, requires_grad=True)
    w = (x * x).exp() + 1
    _, nodes = watch(w)
    w.backward(retain_graph=True)
    assert freed_by_torch(nodes) == set()
    w.backward()
    freed_after_second = freed_by_torch(nodes)

    trace = gradtrace.run(RETAINED)
    assert trace.ok, trace.error
    assert trace.stdout == str(x.grad) + "\n"
    names = ops(trace)
    freed_events = of_kind(trace, FreedEvent)
    # Only the second pass (no retain_graph) frees.
    assert [e.pass_ for e in freed_events] == [1]
    assert {names[n] for n in freed_events[0].nodes} == freed_after_second
    assert not of_kind(trace, BackwardErrorEvent)


POSITIONAL = """
import torch
x = torch.tensor(2.0, requires_grad=True)
w = (x * x).exp() + 1
torch.autograd.backward(w, None, True)
g, = torch.autograd.grad(w, x, None, None, False, True)
torch.autograd.backward([w], [torch.tensor(1.0)], None, False)
print(x.grad, g)
"""


def test_retain_graph_given_by_position_is_read_as_torch_reads_it() -> None:
    # autograd.backward(tensors, grad_tensors, retain_graph, ...) and autograd.grad(outputs,
    # inputs, grad_outputs, retain_graph, create_graph, only_inputs, ...): the first pass
    # retains by position, the second's sixth argument is only_inputs, not create_graph
    # (so it frees), and the third never runs on the freed graph in torch either.
    x = torch.tensor(2.0, requires_grad=True)
    w = (x * x).exp() + 1
    _, nodes = watch(w)
    torch.autograd.backward(w, None, True)
    assert freed_by_torch(nodes) == set()
    torch.autograd.grad(w, x, None, None, False, True)
    freed_by_grad = freed_by_torch(nodes)
    assert freed_by_grad
    with pytest.raises(RuntimeError, match="second time"):
        torch.autograd.backward([w], [torch.tensor(1.0)], None, False)

    trace = gradtrace.run(POSITIONAL)
    assert not trace.ok
    assert trace.error is not None and "second time" in trace.error.message
    names = ops(trace)
    freed_events = of_kind(trace, FreedEvent)
    assert [e.pass_ for e in freed_events] == [1]
    assert {names[n] for n in freed_events[0].nodes} == freed_by_grad
    assert len(of_kind(trace, BackwardErrorEvent)) == 1


ADD_ONLY = """
import torch
a = torch.tensor(1.0, requires_grad=True)
b = a + a
b.backward()
b.backward()
print(a.grad)
"""


def test_a_graph_with_no_saved_tensors_runs_backward_twice() -> None:
    a = torch.tensor(1.0, requires_grad=True)
    b = a + a
    _, nodes = watch(b)
    b.backward()
    assert freed_by_torch(nodes) == set()
    b.backward()  # torch runs it: nothing was saved, nothing was freed

    trace = gradtrace.run(ADD_ONLY)
    assert trace.ok, trace.error
    assert trace.stdout == str(a.grad) + "\n"
    assert not of_kind(trace, FreedEvent)
    assert not of_kind(trace, BackwardErrorEvent)


CUSTOM = """
import torch

class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        local = 2 * x
        return grad * local

def show(g):
    print("hook", g)
    return g * 1

x = torch.tensor(3.0, requires_grad=True)
y = Square.apply(x)
y.register_hook(show)
x.register_hook(lambda g: g + 0)
y.backward()
"""


def test_hook_and_custom_backward_lines_are_stepped_where_they_run() -> None:
    trace = gradtrace.run(CUSTOM)
    assert trace.ok, trace.error
    names = ops(trace)
    tensors = {n.id: n.name for n in trace.nodes if n.kind == "tensor"}
    lines = of_kind(trace, LineEvent)
    where = [(names.get(e.node or "") or tensors.get(e.node or ""), e.line) for e in lines]
    # y's hook, then the engine calls SquareBackward, then x's lambda hook: the order
    # the engine ran them in, each statement of each body once.
    at = partial(line_of, CUSTOM)
    assert where == [
        ("y", at('print("hook"')),
        ("y", at("return g * 1")),
        ("SquareBackward", at("= ctx.saved_tensors")),
        ("SquareBackward", at("local = 2 * x")),
        ("SquareBackward", at("return grad * local")),
        ("x", at("lambda g")),
    ]
    steps = trace.timeline
    square = next(i for i, n in names.items() if n == "SquareBackward")
    ran = next(
        k for k, e in enumerate(steps) if isinstance(e, BackwardFunctionEvent) and e.node == square
    )
    # The body's lines come before the Function's gradients (they compute them).
    assert all(steps.index(e) < ran for e in lines if e.node == square)
    # A custom Function is freed whole after a pass without retain_graph.
    (freed,) = of_kind(trace, FreedEvent)
    assert [names[n] for n in freed.nodes] == ["SquareBackward"]


NO_SAVED_CUSTOM = """
import torch

class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2

x = torch.tensor(3.0, requires_grad=True)
y = Twice.apply(x)
y.backward()
y.backward()
print(x.grad)
"""


def test_a_custom_function_that_saved_nothing_runs_backward_again() -> None:
    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: torch.Tensor) -> torch.Tensor:
            return x * 2

        @staticmethod
        def backward(ctx: Any, grad: torch.Tensor) -> torch.Tensor:
            return grad * 2

    x = torch.tensor(3.0, requires_grad=True)
    y = Twice.apply(x)
    y.backward()
    y.backward()  # torch runs it again: the Function saved nothing to free

    trace = gradtrace.run(NO_SAVED_CUSTOM)
    assert trace.ok, trace.error
    assert trace.stdout == str(x.grad) + "\n"
    assert not of_kind(trace, FreedEvent)
    assert not of_kind(trace, BackwardErrorEvent)


SAVED_CUSTOM_TWICE = CUSTOM + "y.backward()\n"


def test_a_custom_function_that_saved_tensors_fails_its_second_backward() -> None:
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: torch.Tensor) -> torch.Tensor:
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx: Any, grad: torch.Tensor) -> torch.Tensor:
            (x,) = ctx.saved_tensors
            return grad * 2 * x

    x = torch.tensor(3.0, requires_grad=True)
    y = Square.apply(x)
    entered, _ = watch(y)
    y.backward()
    entered.clear()
    with pytest.raises(RuntimeError) as raised:
        y.backward()

    trace = gradtrace.run(SAVED_CUSTOM_TWICE)
    assert not trace.ok
    names = ops(trace)
    (error,) = of_kind(trace, BackwardErrorEvent)
    assert names[error.node] == entered[-1] == "SquareBackward"
    assert error.message == str(raised.value)
    # The body's first line ran (reading the freed tensors raised there).
    second = [e.line for e in of_kind(trace, LineEvent) if e.pass_ == 1 and e.node == error.node]
    assert second == [line_of(CUSTOM, "= ctx.saved_tensors")]


MANY_LINES = """
import torch

def slow(g):
    for i in range(150):
        g = g + 0
    return g

x = torch.tensor(1.0, requires_grad=True)
for step in range(30):
    y = x * 3
    y.register_hook(slow)
    y.backward()
"""


def test_lines_are_capped_per_pass_and_the_trace_says_so() -> None:
    trace = gradtrace.run(MANY_LINES)
    assert trace.ok, trace.error
    lines = of_kind(trace, LineEvent)
    per_pass: dict[int, int] = {}
    for e in lines:
        per_pass[e.pass_] = per_pass.get(e.pass_, 0) + 1
    assert per_pass and all(n == LINES_PER_PASS for n in per_pass.values())
    # Only the passes the trace keeps carry lines: 30 passes do not make 30 × 100 events.
    assert set(per_pass) == {p.index for p in trace.passes}
    assert len(per_pass) < 30
    assert any(f"at most {LINES_PER_PASS} statements" in note for note in trace.truncation)


PACKED = """
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
i = torch.tensor([0, 2])
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t):
    p = x * x
q = x[i].exp()
r = p.sum() + q.sum()
r.backward()
print(x.grad)
"""


def test_freed_is_torch_s_answer_for_packed_and_listed_saved_tensors() -> None:
    # A Node whose saved tensors went through a pack hook (no values held as the pass
    # began) and one that saved a list of them (IndexBackward0's indices).
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    i = torch.tensor([0, 2])
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t):
        p = x * x
    r = p.sum() + x[i].exp().sum()
    _, nodes = watch(r)
    r.backward()
    freed = freed_by_torch(nodes)
    assert {"MulBackward0", "IndexBackward0", "ExpBackward0"} <= freed

    trace = gradtrace.run(PACKED)
    assert trace.ok, trace.error
    assert trace.stdout == str(x.grad) + "\n"
    names = ops(trace)
    (event,) = of_kind(trace, FreedEvent)
    assert sorted(names[n] for n in event.nodes) == sorted(freed)


# Where a plain backward pass raised is found from the graph, with no pre-hook on its
# Nodes (passes.py's `_unfinished`): each case is asked of torch's own pre-hooks.
INPLACE = """
import torch
x = torch.tensor([0.5, 1.0], requires_grad=True)
w = torch.tensor([2.0, 3.0], requires_grad=True)
a = x.exp()
b = (w * x).sin()
c = w.tanh() * 3
s = a.sigmoid()
a.add_(1)
loss = (s + b + c).sum()
loss.backward()
"""


def test_a_pass_that_raises_mid_graph_names_the_node_torch_was_in() -> None:
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    a = x.exp()
    b = (w * x).sin()
    c = w.tanh() * 3
    s = a.sigmoid()
    a.add_(1)
    loss = (s + b + c).sum()
    entered, _ = watch(loss)
    with pytest.raises(RuntimeError) as raised:
        loss.backward()
    assert len(entered) > 3  # Nodes of other branches ran before the failing one

    trace = gradtrace.run(INPLACE)
    assert not trace.ok and trace.error is not None
    names = ops(trace)
    (error,) = of_kind(trace, BackwardErrorEvent)
    assert names[error.node] == entered[-1] == "ExpBackward0"
    assert error.message == str(raised.value)
    ran = [names[e.node] for e in of_kind(trace, BackwardFunctionEvent)]
    assert ran == entered[:-1]


HOOK_RAISES = """
import torch
w1 = torch.tensor(1.0, requires_grad=True)
w2 = torch.tensor(2.0, requires_grad=True)
w3 = torch.tensor(3.0, requires_grad=True)

def refuse(g):
    raise ValueError("no gradient for w2")

w2.register_hook(refuse)
loss = w1.exp() + w2.sin() + w3.cos()
loss.backward()
"""


def test_a_hook_that_raises_while_several_nodes_are_ready_names_its_own() -> None:
    w1, w2, w3 = (torch.tensor(v, requires_grad=True) for v in (1.0, 2.0, 3.0))
    loss = w1.exp() + w2.sin() + w3.cos()
    running: list[Any] = []

    def refuse(g: torch.Tensor) -> None:
        running.append(torch._C._current_autograd_node())
        raise ValueError("no gradient for w2")

    w2.register_hook(refuse)
    with pytest.raises(ValueError):
        loss.backward()
    (node,) = running
    assert type(node).__name__ == "AccumulateGrad" and node.variable is w2
    # w1's and w3's AccumulateGrad were ready too, with the same sequence number.

    trace = gradtrace.run(HOOK_RAISES)
    assert not trace.ok and trace.error is not None and trace.error.type == "ValueError"
    (error,) = of_kind(trace, BackwardErrorEvent)
    failing = next(n for n in trace.nodes if n.id == error.node)
    assert isinstance(failing, FunctionNode) and failing.op == "AccumulateGrad"
    assert trace.variables["w2"] == failing.tensor
    assert error.message == "no gradient for w2"


WRONG_SHAPE = """
import torch

class Widen(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return torch.cat([grad, grad])

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Widen.apply(x).exp()
y.sum().backward()
"""


def test_a_custom_backward_torch_refuses_after_it_returned_is_where_the_pass_raised() -> None:
    class Widen(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: torch.Tensor) -> torch.Tensor:
            return x * 2

        @staticmethod
        def backward(ctx: Any, grad: torch.Tensor) -> torch.Tensor:
            return torch.cat([grad, grad])

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    total = Widen.apply(x).exp().sum()
    entered, _ = watch(total)
    with pytest.raises(RuntimeError) as raised:
        total.backward()  # torch checks the gradient's shape after the body returned

    trace = gradtrace.run(WRONG_SHAPE)
    assert not trace.ok
    names = ops(trace)
    (error,) = of_kind(trace, BackwardErrorEvent)
    assert names[error.node] == entered[-1] == "WidenBackward"
    assert error.message == str(raised.value)
