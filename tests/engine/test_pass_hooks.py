"""The recorder's hooks on autograd Nodes (trace/passes.py) stay on a Node from the first
pass that reaches it to the end of the job. Kept, they must act as hooks added afresh for
each pass would: after the program's own Node hooks, only for the Nodes the running pass
can reach, and holding nothing of the job."""

from __future__ import annotations

import gc
from typing import Any

import torch

import gradtrace
from gradtrace.trace.models import BackwardFunctionEvent, FunctionNode, Trace
from gradtrace.trace.passes import BackwardPasses
from gradtrace.trace.recorder import Recorder
from gradtrace.trace.records import FunctionRec

FORWARD = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * x
z = y.exp()
w = z.sum()
"""
REPLACE = "z.grad_fn.register_hook(lambda gi, go: (gi[0] * 10,))\n"
DOUBLE = "z.grad_fn.register_prehook(lambda go: (go[0] * 2,))\n"


RAISE = "def boom(go):\n    raise ValueError('no')\nz.grad_fn.register_prehook(boom)\n"


def events_of(trace: Trace, index: int) -> list[dict[str, Any]]:
    """The events of pass `index`, without what differs from one pass to the next (its
    number, the running sum of a leaf's `.grad`)."""
    events = []
    for event in trace.timeline:
        dumped = event.model_dump(by_alias=True)
        if dumped.get("pass") == index:
            dumped.pop("pass")
            dumped.pop("accumulated", None)
            events.append(dumped)
    return events


def test_a_node_hook_added_after_a_pass_runs_before_the_recording_as_in_a_first_pass() -> None:
    """The program's Node hooks (which change the gradients) run before the recorder's
    whenever they were registered: the pass after is recorded as a first pass with them."""
    for hook in (REPLACE, DOUBLE, RAISE):
        later = gradtrace.run(FORWARD + "w.backward(retain_graph=True)\n" + hook + "w.backward()\n")
        # The same lines: the hook's body is stepped at its line.
        first = gradtrace.run(FORWARD + "pass\n" + hook + "w.backward()\n")
        assert len(later.passes) == 2 and len(first.passes) == 1
        assert events_of(later, 1) == events_of(first, 0)
        assert events_of(later, 0) != events_of(first, 0)


def test_the_recorded_gradients_are_those_the_program_s_node_hook_made() -> None:
    trace = gradtrace.run(FORWARD + "w.backward(retain_graph=True)\n" + REPLACE + "w.backward()\n")
    exp = next(n.id for n in trace.nodes if isinstance(n, FunctionNode) and n.op == "ExpBackward0")
    ran = [e for e in trace.timeline if isinstance(e, BackwardFunctionEvent) and e.node == exp]
    x = torch.tensor([1.0, 2.0])
    plain = torch.ones(2) * (x * x).exp()
    assert [e.grad_inputs[0].values for e in ran] == [plain.tolist(), (plain * 10).tolist()]


NESTED = """import torch
x = torch.tensor(2.0, requires_grad=True)
a = x * 2
b = a * 3
b.backward(retain_graph=True)
c = x.exp()
def hook(g):
    b.backward(retain_graph=True)
    return g
c.register_hook(hook)
c.backward()
print(x.grad)
"""


def test_a_pass_records_only_the_nodes_it_can_reach() -> None:
    """A pass a hook runs inside another goes through Nodes an earlier pass hooked: the
    recording pass cannot reach them, and records none of them."""
    trace = gradtrace.run(NESTED)
    assert trace.ok, trace.error
    x = torch.tensor(2.0, requires_grad=True)
    (x * 2 * 3).backward()
    x.exp().backward()
    (x * 2 * 3).backward()
    assert trace.stdout == f"{x.grad!r}\n"
    ops = {n.id: n.op for n in trace.nodes if isinstance(n, FunctionNode)}
    ran = [
        {
            ops[e.node]
            for e in trace.timeline
            if isinstance(e, BackwardFunctionEvent) and e.pass_ == p
        }
        for p in (0, 1)
    ]
    assert ran == [{"MulBackward0", "AccumulateGrad"}, {"ExpBackward0", "AccumulateGrad"}]


RETAINED = """import torch
w = torch.tensor([0.5, -1.0], requires_grad=True)
for i in range(3):
    loss = (w * w).sum() + w.sin().sum()
    loss.backward(retain_graph=True)
    loss.grad_fn.register_hook(lambda gi, go: None)
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
    w.grad = None
print(w)
"""


def _alive_of_the_recorder() -> int:
    gc.collect()
    kinds = (Recorder, BackwardPasses, FunctionRec)
    return sum(1 for obj in gc.get_objects() if type(obj) in kinds)


def test_the_hooks_left_on_nodes_keep_nothing_of_the_job() -> None:
    """torch holds the hooks from C++, where the cyclic GC cannot follow: a hook that held
    its record (which holds its Node) would keep the recorder alive for good."""
    trace = gradtrace.run(RETAINED)
    assert trace.ok, trace.error
    before = _alive_of_the_recorder()
    for _ in range(3):
        gradtrace.run(RETAINED)
    assert _alive_of_the_recorder() == before == 0
