"""Each recorded gradient against an independent torch.autograd.grad computation.

How: the reference runner (tests/engine/reference_runner.py) runs every program a second
time under plain CPython + torch with `torch.autograd.backward` and `torch.autograd.grad`
wrapped. Just before each real backward pass, the wrapper asks the original
`torch.autograd.grad(root, [every global tensor that requires grad], grad_outputs,
retain_graph=True, allow_unused=True)`: the gradient of the pass's root with respect to
each named tensor, which is what must arrive at that tensor during the pass (for leaves
and non-leaves alike, API.md: timeline backward events with node_kind "tensor"). Only
names still bound to the same tensor object at the end of the program are kept, since
gradtrace's `trace.variables` names the final bindings.

The test then finds, in gradtrace's timeline, the backward tensor events of pass k for
the node `trace.variables[name]` or an earlier version of the same tensor (`previous`)
and compares. A tensor with a user hook is checked for
presence only (whether the event carries the gradient before or after the hook is the
engine's choice). It also checks each pass's line, and each named tensor's forward
`value` against the reference where the tensor was never modified in place (its value
when a name first bound it equals its value at the end).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from engine_support import (
    program_params,
    reference_entry,
    run_gradtrace,
    tensor_node,
    tensordata_diff,
)

PROGRAMS = program_params()


def versions(trace: Any, node: Any) -> list[str]:
    """The node and every earlier version of the same tensor (`previous` links)."""
    by_id = {n.id: n for n in trace.nodes}
    chain = []
    while node is not None:
        chain.append(node.id)
        node = by_id.get(node.previous) if node.previous else None
    return chain


def tensor_events(trace: Any) -> dict[tuple[int, str], list[Any]]:
    out: dict[tuple[int, str], list[Any]] = {}
    for ev in trace.timeline:
        if ev.phase == "backward" and ev.node_kind == "tensor":
            out.setdefault((ev.pass_, ev.node), []).append(ev)
    return out


def pass_base(trace: Any, probe_passes: list[dict[str, Any]]) -> int:
    """gradtrace's index of the program's first backward pass (0 or 1): the base under
    which the most recorded passes sit on the line the reference saw."""
    by_index = {p.index: p for p in trace.passes}

    def score(base: int) -> int:
        return sum(
            1
            for i, rec in enumerate(probe_passes)
            if (p := by_index.get(base + i)) is not None and p.line == rec["line"]
        )

    return max((0, 1), key=score)


@pytest.mark.parametrize("path", PROGRAMS)
def test_pass_count_and_lines(path: Path, reference: dict[str, Any]) -> None:
    probe = reference_entry(reference, path)["probe"]["passes"]
    trace = run_gradtrace(path)
    if not trace.truncated:
        assert len(trace.passes) == len(probe), [p.line for p in trace.passes]
    base = pass_base(trace, probe)
    by_index = {p.index: p for p in trace.passes}
    for i, rec in enumerate(probe):
        p = by_index.get(base + i)
        if p is None:
            assert trace.truncated, f"pass {base + i} missing, trace not truncated"
            continue
        assert p.line == rec["line"], f"pass {p.index}: line {p.line}, expected {rec['line']}"
        assert p.kind == rec["kind"], f"pass {p.index}: kind {p.kind}, expected {rec['kind']}"


@pytest.mark.parametrize("path", PROGRAMS)
def test_backward_tensor_grads(path: Path, reference: dict[str, Any]) -> None:
    probe = reference_entry(reference, path)["probe"]["passes"]
    checked = [rec for rec in probe if rec["skipped"] is None and rec["grads"]]
    if not checked:
        pytest.skip("no backward pass with a named tensor to check")
    trace = run_gradtrace(path)
    events = tensor_events(trace)
    base = pass_base(trace, probe)
    recorded = {p.index for p in trace.passes}
    problems: list[str] = []
    compared = 0
    for i, rec in enumerate(probe):
        k = base + i
        if rec["skipped"] is not None or k not in recorded:
            continue
        for name, info in rec["grads"].items():
            node = tensor_node(trace, name)
            if node is None:
                problems.append(f"pass {k} {name}: not in trace.variables")
                continue
            # A tensor changed in place since the pass (w.data -= ...) has a newer node;
            # the gradient arrived at the version that was live during the pass.
            # Each version of a tensor changed in place inside the graph gets its own
            # gradient; the name's gradient is that of the newest version that got one.
            evs = next(
                (found for v in versions(trace, node) if (found := events.get((k, v), []))), []
            )
            want = info["grad"]
            where = f"pass {k} (line {rec['line']}) {name}"
            if want is None:
                if rec["kind"] == "backward" and evs:
                    problems.append(f"{where}: a grad event where no gradient flows")
                continue
            if not evs:
                if rec["kind"] == "backward" or info["is_input"]:
                    problems.append(f"{where}: no grad event")
                continue
            if len(evs) > 1:
                problems.append(f"{where}: {len(evs)} grad events for one pass")
                continue
            if info["hooked"]:
                continue
            compared += 1
            diff = tensordata_diff(evs[0].grad, want)
            if diff:
                problems.append(f"{where}: {diff}")
    assert not problems, "\n".join(problems[:30])


@pytest.mark.parametrize("path", PROGRAMS)
def test_forward_values(path: Path, reference: dict[str, Any]) -> None:
    """A named tensor's node value is its value in CPython (where never changed in place)."""
    want_values = reference_entry(reference, path)["probe"]["unmodified_values"]
    trace = run_gradtrace(path)
    problems = []
    for name, want in want_values.items():
        node = tensor_node(trace, name)
        if node is None:
            problems.append(f"{name}: not in trace.variables")
            continue
        diff = tensordata_diff(node.value, want)
        if diff:
            problems.append(f"{name}.value: {diff}")
        if list(node.shape) != want["shape"]:
            problems.append(f"{name}.shape: {node.shape} vs {want['shape']}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", PROGRAMS)
def test_grad_events_are_well_formed(path: Path) -> None:
    """Every backward event names a node of the right kind and a recorded pass, and a
    tensor's gradient has that tensor's shape."""
    trace = run_gradtrace(path)
    nodes = {n.id: n for n in trace.nodes}
    passes = {p.index for p in trace.passes}
    problems = []
    for ev in trace.timeline:
        if ev.phase == "print":
            continue
        if ev.phase == "warning":
            if not ev.message or "Triggered internally" in ev.message:
                problems.append(f"warning event {ev.message!r}")
            continue
        if ev.phase == "freed":
            # The end of a pass: torch freed these Functions' saved tensors.
            if ev.pass_ not in passes:
                problems.append(f"freed event in unrecorded pass {ev.pass_}")
            kinds = {nodes[n].kind if n in nodes else "unknown" for n in ev.nodes}
            if not ev.nodes or kinds != {"function"}:
                problems.append(f"freed event on {sorted(kinds)} nodes")
            continue
        if ev.phase == "line":
            # A statement a hook or a custom backward ran: a source line, in a recorded pass.
            if ev.pass_ not in passes or ev.line < 1:
                problems.append(f"line event {ev.line} in pass {ev.pass_}")
            if ev.node is not None and ev.node not in nodes:
                problems.append(f"line event at unknown node {ev.node}")
            continue
        if ev.phase == "error":
            if ev.pass_ not in passes or nodes.get(ev.node) is None:
                problems.append(f"error event at {ev.node} in pass {ev.pass_}")
            elif nodes[ev.node].kind != "function" or not ev.message:
                problems.append(f"error event on a {nodes[ev.node].kind} node, {ev.message!r}")
            continue
        node = nodes.get(ev.node)
        if node is None:
            problems.append(f"{ev.phase} event for unknown node {ev.node}")
            continue
        if ev.phase == "forward":
            if node.kind != "tensor":
                problems.append(f"forward event on a {node.kind} node {ev.node}")
            continue
        if ev.phase == "update":
            # A leaf changed outside autograd: a leaf tensor node, values of its shape.
            if node.kind != "tensor" or not node.is_leaf:
                problems.append(f"update event on a non-leaf {ev.node}")
            elif ev.value is not None and list(ev.value.shape) != list(node.shape):
                problems.append(f"update of {ev.node}: shape {ev.value.shape} vs {node.shape}")
            continue
        if ev.pass_ not in passes:
            problems.append(f"backward event in unrecorded pass {ev.pass_}")
        if node.kind != ev.node_kind:
            problems.append(f"{ev.node_kind} event on a {node.kind} node {ev.node}")
        elif ev.node_kind == "tensor" and list(ev.grad.shape) != list(node.shape):
            problems.append(f"grad of {ev.node}: shape {ev.grad.shape} vs {node.shape}")
    assert not problems, "\n".join(problems[:30])
