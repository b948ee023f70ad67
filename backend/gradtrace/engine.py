"""The whole engine in one call: source in, Trace out (docs/API.md)."""

from __future__ import annotations

import logging

import orjson

from gradtrace.language.limits import Limits
from gradtrace.trace.models import Trace

log = logging.getLogger("gradtrace.engine")


def run_json(
    source: str,
    device: str = "cpu",
    seed: int = 0,
    limits: Limits | None = None,
    iteration: int | None = None,
) -> bytes:
    """Run `source` and return its Trace as JSON bytes (the service's fast path)."""
    from gradtrace.trace.session import trace_program

    device = _ready(device)
    return trace_program(
        source, device=device, seed=seed, limits=limits or Limits(), iteration=iteration
    )


def run(
    source: str,
    device: str = "cpu",
    seed: int = 0,
    limits: Limits | None = None,
    iteration: int | None = None,
) -> Trace:
    """Run `source` through real torch autograd after `torch.manual_seed(seed)`.

    A program with many backward passes keeps the graphs of its last iterations in full;
    `iteration=k` keeps the forward and backward pass of iteration k instead.
    """
    from gradtrace.trace.session import trace_object

    device = _ready(device)
    # Built as objects from the recorder, never written as JSON and read back.
    return trace_object(
        source, device=device, seed=seed, limits=limits or Limits(), iteration=iteration
    )


_warmed: set[str] = set()


def _ready(device: str) -> str:
    """The concrete device, warmed up in this process before its first program there: a
    GPU's context, its libraries' handles and its first kernels take seconds to load,
    which would otherwise count against the first program's time limit."""
    from gradtrace.devices import resolve_device

    device = resolve_device(device)
    if device != "cpu" and device not in _warmed:
        _warmed.add(device)
        warm_up(device)
    return device


# Exercises the parts of torch that import modules or build tables on first use (the
# optimizers' profiler hooks, meta-device shape functions, DataLoader, printing), so a
# sandboxed worker that may not open files has them all before its first job.
_WARM_UP = """
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g


model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
for opt in (torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9),
            torch.optim.Adam(model.parameters(), lr=0.01)):
    data = TensorDataset(torch.randn(4, 3), torch.tensor([0, 1, 0, 1]))
    for xb, yb in DataLoader(data, batch_size=2, shuffle=True):
        loss = F.cross_entropy(model(xb), yb) + F.mse_loss(Square.apply(xb).sum(), torch.tensor(1.0))
        opt.zero_grad()
        loss.backward()
        opt.step()
x = torch.tensor([1.0, -2.0], requires_grad=True)
g, = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
g.sum().backward()
big = torch.ones(1000, 1)
print(x, x.grad, loss.grad_fn, f"{loss.item():.3f}", "{}".format(x.shape), model)
"""


# A GPU's first program starts its context and loads kernels, and an optimizer's first
# step imports for seconds: more than a job's limit on a busy host. The context and the
# libraries' handles also grow the process by more than a program's objects may add
# (measured on an H200: the warm-up failed at 192 MB); each job's bound starts after them.
_WARM_UP_LIMITS = Limits(wall_time_s=60.0, memory_mb=4096)


def warm_up(device: str = "cpu", program: str = _WARM_UP) -> bool:
    """Run one representative program, traced and then gradient-checked, so a fresh
    worker's first real job of either kind is fast (and finds nothing left to load).
    False, with a warning in the log, where the program failed: the process is then not
    warm, and a confined worker may lack a module a later job needs."""
    from gradtrace.gradcheck import check_gradients

    trace = run_json(program, device=device, limits=_WARM_UP_LIMITS)
    warm = b'"ok":true' in trace[:64]  # the Trace's second field
    if not warm:  # rare: read the error back only then
        error = orjson.loads(trace)["error"]
        log.warning(
            "the warm-up program failed on %s: %s: %s", device, error["type"], error["message"]
        )
    check_gradients(program, device=device, limits=_WARM_UP_LIMITS, max_elements=2)
    # A refused oversized matmul runs torch's meta-device shape functions once.
    run_json(
        "import torch\na = torch.ones(2000, 1)\nb = torch.ones(1, 2000)\nc = a @ b",
        device=device,
        limits=_WARM_UP_LIMITS,
    )
    return warm
