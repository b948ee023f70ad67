"""Worker processes that run programs under limits: never in the server process.

CPU workers are forked from a warm zygote and each runs many jobs (the engine resets
torch's global state at the start of every job); GPU workers are spawned. Each worker
confines itself before its first job (confine.py) and the server kills a job that runs
past its time, replacing the worker. Each process starts inside bubblewrap's
namespaces (bwrap.py) and loads a seccomp filter (seccomp_filter.py): the wall that holds
when the language does not. `confined_call` runs a function behind the same wall.
"""

from gradtrace.sandbox.config import WorkerConfig
from gradtrace.sandbox.confined import ConfinedCallError, confined_call
from gradtrace.sandbox.launchers import Launcher, LaunchError, SpawnLauncher, ZygoteLauncher
from gradtrace.sandbox.pool import InternalError, JobResult, PoolSaturated, PoolStats, WorkerPool

__all__ = [
    "ConfinedCallError",
    "InternalError",
    "JobResult",
    "LaunchError",
    "Launcher",
    "PoolSaturated",
    "PoolStats",
    "SpawnLauncher",
    "WorkerConfig",
    "WorkerPool",
    "ZygoteLauncher",
    "confined_call",
]
