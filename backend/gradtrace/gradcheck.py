"""The numerical gradient check: autograd's gradients against central finite differences.

The method of the seed tutorial on cutting the graph, run by the engine: every leaf that
requires grad is numbered in the order the program makes it; each check run replays the
program with one element of one leaf moved by ±h at the moment it is made, and stops at
the first backward pass to read its scalar root. (f(x+h) − f(x−h)) / 2h is set beside
the gradient autograd sent that leaf in the same pass, so a wrong custom backward shows.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

import torch
from pydantic import BaseModel, Field

from gradtrace.devices import resolve_device
from gradtrace.identity import identity
from gradtrace.language.errors import LimitError
from gradtrace.language.interpreter import Interpreter
from gradtrace.language.limits import Limits
from gradtrace.language.namespaces import MODULES
from gradtrace.language.parse import parse_program
from gradtrace.trace.events import GradReached
from gradtrace.trace.models import ErrorInfo
from gradtrace.trace.probe import Probe, ProbeDone
from gradtrace.trace.recorder import Recorder
from gradtrace.trace.session import clean_torch_state, error_info


class LeafCheck(BaseModel):
    node: str = Field(description="the leaf's tensor node in the trace of the same request")
    name: str | None
    shape: list[int]
    checked: int = Field(description="elements compared (the first ones, within the budget)")
    autograd: list[float]
    numeric: list[float]
    max_abs_diff: float
    agree: bool


class GradCheck(BaseModel):
    ok: bool
    error: ErrorInfo | None = None
    root: str | None = None
    pass_: int = Field(default=0, alias="pass")
    eps: float
    leaves: list[LeafCheck] = Field(default_factory=list)
    note: str | None = None

    model_config = {"populate_by_name": True, "serialize_by_alias": True}


def _run(
    tree: Any, source: str, limits: Limits, device: str, seed: int, probe: Probe | None
) -> Recorder:
    recorder = Recorder(limits)
    recorder.bind_specials(MODULES)
    recorder.probe = probe
    interp = Interpreter(source, limits, recorder, device)
    try:
        with clean_torch_state(seed, device), contextlib.suppress(ProbeDone):
            interp.run(tree)
    finally:
        # As a traced job ends (session.py): what torch holds from C++ (hooks, Function
        # classes) no longer keeps this run's interpreter and tensors alive. The check
        # reads only the recorder after this.
        interp.close()
        recorder.close()
    return recorder


def check_gradients(
    source: str,
    device: str = "cpu",
    seed: int = 0,
    limits: Limits | None = None,
    eps: float = 1e-3,
    max_elements: int = 64,
) -> GradCheck:
    limits = limits or Limits()
    device = resolve_device(device)
    started = time.monotonic()
    try:
        tree = parse_program(source, limits)
        base = _run(tree, source, limits, device, seed, None)
    except Exception as exc:
        return GradCheck(ok=False, eps=eps, error=ErrorInfo(**error_info(exc)))
    if not base.passes or base.passes[0].root is None:
        return GradCheck(ok=False, eps=eps, note="the program has no backward pass to check")
    first = base.passes[0]
    root = first.root
    assert root is not None
    if root.tensor.numel() != 1:
        return GradCheck(ok=False, eps=eps, note="the first backward pass's root is not a scalar")
    try:
        return _compare(tree, source, base, limits, device, seed, started, eps, max_elements)
    except Exception as exc:  # a check run that fails (a limit, or the program itself)
        return GradCheck(ok=False, eps=eps, error=ErrorInfo(**error_info(exc)))


def _compare(
    tree: Any,
    source: str,
    base: Recorder,
    limits: Limits,
    device: str,
    seed: int,
    started: float,
    eps: float,
    max_elements: int,
) -> GradCheck:
    """Each leaf element's difference quotient beside autograd's gradient."""
    first = base.passes[0]
    root = first.root
    assert root is not None
    arrived: dict[str, torch.Tensor] = {}
    for event in base.timeline:
        if isinstance(event, GradReached) and event.pass_ == 0:
            arrived[event.node] = event.grad.materialize_tensor()
    checks: list[LeafCheck] = []
    budget = max_elements
    deadline = started + limits.wall_time_s
    note = None
    for index, leaf in enumerate(base.leaves):
        leaf_rec = base.node_of(leaf)
        versions = base.versions.get(identity(leaf), [leaf_rec])
        grad = next((arrived[v.id] for v in versions if v.id in arrived), None)
        gradient = grad.reshape(-1).double() if grad is not None else torch.zeros(leaf.numel())
        count = min(leaf.numel(), budget)
        if count == 0:
            break
        numeric: list[float] = []
        for element in range(count):
            if time.monotonic() > deadline:
                note = "stopped at the time limit; the leaves listed were checked"
                break
            values = []
            for sign in (1.0, -1.0):
                probe = Probe(index, element, sign * eps)
                run = _run(tree, source, limits, device, seed, probe)
                if probe.value is None or len(run.leaves) <= index:
                    raise LimitError("a check run did not reach the first backward pass")
                values.append(probe.value)
            numeric.append((values[0] - values[1]) / (2 * eps))
        checked = len(numeric)
        if checked == 0:
            break
        budget -= checked
        auto = gradient[:checked].tolist()
        diffs = [abs(a - n) for a, n in zip(auto, numeric)]
        # float32 programs: the difference quotient carries about 1e-7·|f|/eps of rounding.
        rounding = 4 * 1.2e-7 * abs(root.tensor.item()) / eps
        agree = all(d <= 1e-2 * max(1.0, abs(a)) + rounding for d, a in zip(diffs, auto))
        versions_first = versions[0]
        checks.append(
            LeafCheck(
                node=versions_first.id,
                name=versions_first.name,
                shape=list(leaf.shape),
                checked=checked,
                autograd=auto,
                numeric=numeric,
                max_abs_diff=max(diffs),
                agree=agree,
            )
        )
        if note is not None or budget <= 0:
            note = note or f"checked the first {max_elements} elements in all"
            break
    return GradCheck(
        ok=True, root=root.id, eps=eps, leaves=checks, note=note, **{"pass": first.index}
    )
