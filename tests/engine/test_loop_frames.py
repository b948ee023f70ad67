"""Each node carries the source loops it was made in: their lines and iterations,
outermost first (what the browser groups a long loop's nodes by)."""

from __future__ import annotations

import gradtrace

NESTED = """
import torch
x = torch.tensor(1.0, requires_grad=True)
y = x * 1.0
k = 0
while k < 2:
    for j in range(3):
        if j == 2:
            break
        y = y + j
    k += 1
z = y * 2.0
def step(v):
    for _ in range(2):
        v = v * 0.5
    return v
for i in range(2):
    z = step(z)
"""


def _frames_by_line(trace: gradtrace.Trace) -> list[tuple[str, list[tuple[int, int]]]]:
    lines = NESTED.splitlines()
    rows: list[tuple[str, list[tuple[int, int]]]] = []
    for node in trace.nodes:
        if node.kind != "tensor" or node.span is None or node.role != "intermediate":
            continue
        text = lines[node.span.line - 1].strip()
        rows.append((text, [(f.line, f.iteration) for f in node.loops]))
    return rows


def test_nodes_carry_the_loops_they_were_made_in() -> None:
    trace = gradtrace.run(NESTED)
    assert trace.ok, trace.error
    rows = _frames_by_line(trace)
    # The while is on line 6, its for on line 7; the function's loop on line 14, the
    # loop that calls it on line 17.
    assert rows == [
        ("y = x * 1.0", []),
        ("y = y + j", [(6, 0), (7, 0)]),
        ("y = y + j", [(6, 0), (7, 1)]),
        ("y = y + j", [(6, 1), (7, 0)]),
        ("y = y + j", [(6, 1), (7, 1)]),
        ("z = y * 2.0", []),
        ("v = v * 0.5", [(17, 0), (14, 0)]),
        ("v = v * 0.5", [(17, 0), (14, 1)]),
        ("v = v * 0.5", [(17, 1), (14, 0)]),
        ("v = v * 0.5", [(17, 1), (14, 1)]),
    ]


def test_a_loop_that_raises_leaves_no_frame_behind() -> None:
    source = """
import torch
x = torch.tensor(1.0, requires_grad=True)
try:
    for i in range(3):
        y = x * 2.0
        if i == 1:
            raise ValueError("stop")
except ValueError:
    pass
z = x * 3.0
"""
    trace = gradtrace.run(source)
    assert trace.ok, trace.error
    made = [n for n in trace.nodes if n.kind == "tensor" and n.role != "leaf"]
    assert [[(f.line, f.iteration) for f in n.loops] for n in made] == [
        [(5, 0)],
        [(5, 1)],
        [],
    ]
