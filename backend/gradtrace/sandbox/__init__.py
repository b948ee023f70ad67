"""Worker processes that run programs under limits: never in the server process.

CPU workers are forked from a warm zygote and each runs many jobs (the engine resets
torch's global state at the start of every job); GPU workers are spawned. Each worker
confines itself before its first job (confine.py) and the server kills a job that runs
past its time, replacing the worker.
"""

from gradtrace.sandbox.config import WorkerConfig
from gradtrace.sandbox.launchers import Launcher, LaunchError, SpawnLauncher, ZygoteLauncher
from gradtrace.sandbox.pool import InternalError, JobResult, PoolSaturated, PoolStats, WorkerPool

__all__ = [
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
]
