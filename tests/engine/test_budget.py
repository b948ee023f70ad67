"""Budgets of the trace itself: its size, and long training loops."""

from __future__ import annotations

import gradtrace
from gradtrace import Limits

LOOP = """
import torch
torch.manual_seed(0)
X = torch.randn(64, 48)
y = torch.randn(64, 1)
w1 = torch.randn(48, 80, requires_grad=True)
w2 = torch.randn(80, 1, requires_grad=True)
for i in range(150):
    loss = (torch.tanh(X @ w1) @ w2 - y).pow(2).mean()
    loss.backward()
    with torch.no_grad():
        w1 -= 0.01 * w1.grad
        w2 -= 0.01 * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
print(loss.item())
"""

WIDE = """
import torch
torch.manual_seed(0)
h = torch.randn(64, 64, requires_grad=True)
for i in range(40):
    h = torch.tanh(h * 1.01)
h.sum().backward()
"""


def test_a_long_loop_keeps_its_last_iteration_whole() -> None:
    trace = gradtrace.run(LOOP)
    assert trace.ok, trace.error
    assert trace.iterations == 150
    assert [p.index for p in trace.passes] == [149]
    assert any(note.startswith("iterations 0–148") for note in trace.truncation)
    losses = next(s for s in trace.series if s.label == "loss")
    assert len(losses.values) == 150
    grads = [e for e in trace.timeline if e.phase == "backward" and e.node_kind == "tensor"]
    small = [e for e in grads if e.grad.numel <= Limits().full_values]
    # Values in full (API.md: up to 4,096 elements); the budget was not spent on dropped ones.
    assert small and all(e.grad.values is not None for e in small)


def test_the_size_budget_bounds_the_tensor_data() -> None:
    full = gradtrace.run(WIDE)
    small = gradtrace.run(WIDE, limits=Limits(trace_bytes=400_000))
    assert full.ok and small.ok
    assert not full.truncated
    assert small.truncated and any("size budget" in n for n in small.truncation)
    assert len(small.to_json()) < len(full.to_json()) / 3
    values = [n.value for n in small.nodes if n.kind == "tensor"]
    # Node values come first in the budget: the first ones are whole, later ones summarised.
    assert values[0].values is not None
    summarised = [v for v in values if v.values is None]
    assert summarised and all(v.stats is not None and v.preview for v in summarised)


def test_repetition_is_bounded_in_all() -> None:
    """Each `[0] * n` is one step; a loop of them stops at the repetition budget."""
    limits = Limits(repeated_items=1_000)
    within = gradtrace.run("rows = [[0] * 100 for i in range(10)]\nprint(len(rows))", limits=limits)
    assert within.ok, within.error
    assert within.stdout == "10\n"
    over = gradtrace.run(
        "rows = []\nfor i in range(20):\n    rows.append([0] * 100)\n", limits=limits
    )
    assert not over.ok and over.error is not None
    assert over.error.type == "LimitError"
    assert "1,000 items by repeating" in over.error.message
    assert over.error.line == 3
    text = gradtrace.run("s = 'ab' * 400\ns = s * 2\nprint(len(s))", limits=limits)
    assert not text.ok and text.error is not None and text.error.line == 2
