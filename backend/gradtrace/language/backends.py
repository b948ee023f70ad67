"""`torch.backends` as tutorials read it: whether the job runs on Apple's GPU (the
modern device line, `"cuda" if ... else "mps" if torch.backends.mps.is_available() else
"cpu"`), and cuDNN's `deterministic` and `benchmark` switches from seed boilerplate.

The switches are the job's own, reset when each job starts (session.py), so a program
reads back what it set and no later job sees it. `deterministic` is also torch's, for a
job on CUDA (cuDNN's convolutions then pick deterministic algorithms: the same trace on
every run), and torch's is restored when the job ends. `benchmark` changes nothing in
torch: autotuning would try algorithms with workspaces outside the job's memory budgets,
and pick by timing, so that the trace would differ between runs. Nothing else of
torch.backends is reached (`cudnn.enabled`, `allow_tf32`, `mps`'s others).
"""

from __future__ import annotations

from typing import Any

import torch

from gradtrace.language.values import Namespace

#: The switches a program may set, with the value each job starts from.
FLAGS = {"deterministic": False, "benchmark": False}


def _on(kind: str) -> bool:
    return torch.get_default_device().type == kind  # the job runs inside torch.device(...)


def _mps_available() -> bool:
    """Whether this job runs on Apple's GPU (MPS)."""
    return _on("mps")


def _mps_built() -> bool:
    """Whether this job runs on Apple's GPU (MPS): as the job sees torch's build."""
    return _on("mps")


def _cudnn_available() -> bool:
    """Whether this job runs on CUDA with cuDNN."""
    return _on("cuda") and bool(torch.backends.cudnn.is_available())


CUDNN = Namespace(
    "torch.backends.cudnn",
    {"is_available": _cudnn_available, **FLAGS},
    torch.backends.cudnn,
)
MPS = Namespace(
    "torch.backends.mps",
    {"is_available": _mps_available, "is_built": _mps_built},
    torch.backends.mps,
)
BACKENDS = Namespace("torch.backends", {"cudnn": CUDNN, "mps": MPS}, torch.backends)


def settable(ns: Namespace, name: str) -> bool:
    return ns is CUDNN and name in FLAGS


def set_flag(name: str, value: Any) -> None:
    """`torch.backends.cudnn.<name> = value` in a program: torch's own check of the value."""
    if type(value) is not bool:
        raise RuntimeError(f"set_{name}_cudnn expects a bool, but got {type(value).__name__}")
    CUDNN.members[name] = value
    if name == "deterministic" and _on("cuda"):
        torch.backends.cudnn.deterministic = value


def reset() -> bool:
    """A job starts: the switches at their defaults. Returns torch's `deterministic`, to
    be restored when the job ends."""
    CUDNN.members.update(FLAGS)
    return bool(torch.backends.cudnn.deterministic)


def restore(deterministic: bool) -> None:
    CUDNN.members.update(FLAGS)
    if torch.backends.cudnn.deterministic != deterministic:
        torch.backends.cudnn.deterministic = deterministic
