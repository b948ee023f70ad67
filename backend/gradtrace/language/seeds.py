"""The seeds of a program's `random` and `numpy.random`, given when the program first
imports either: every job starts them from its seed, as if seeded when it began (nothing
reaches them before an import), and a job that imports neither pays nothing. Seeding both
at the start of each job was about 0.3 % of a small job's instructions (callgrind, 300 jobs
with and without it, PYTHONHASHSEED fixed: 2 runs of the same code differ by 0.1 %)."""

from __future__ import annotations

import random

import numpy as np

_pending: dict[str, int] = {}
# The job's seed, and how many numpy generators the program has made without a seed.
_unseeded = [0, 0]


def seed_for_job(value: int) -> None:
    """A job begins: its `random` and `numpy.random` start from `value` when imported."""
    _pending["random"] = value
    _pending["numpy"] = value
    _unseeded[:] = [value % 2**64, 0]


def unseeded_entropy() -> list[int]:
    """Entropy for a numpy generator made without a seed: numpy would read the OS's, and
    the same request would not give the same trace. The job's seed and a count instead."""
    _unseeded[1] += 1
    return list(_unseeded)


def seed_on_import(module: str) -> None:
    """The program imports `module` (or a submodule of it): seed it, once a job."""
    value = _pending.pop(module.partition(".")[0], None)
    if value is None:
        return
    if module.startswith("numpy"):
        np.random.seed(value % 2**32)
    else:
        random.seed(value)
