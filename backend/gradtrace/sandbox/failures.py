"""Answers for programs the sandbox had to stop: ok false, the error, nothing recorded.

Each reason is an ErrorInfo; `failure_body` writes it once, in the shape of the job that
was asked (a trace, or a gradient check).
"""

from __future__ import annotations

import signal
from dataclasses import dataclass, field
from typing import Any

import torch

from gradtrace.gradcheck import GradCheck
from gradtrace.language.memory import MemoryBound
from gradtrace.sandbox.protocol import Job
from gradtrace.trace import binary
from gradtrace.trace.models import ErrorInfo, Trace
from gradtrace.version import __version__

_MEMORY_MARKERS = ("can't allocate memory", "cannot allocate memory", "out of memory")
_SMALLER = "make the tensors or lists smaller"


def failure_body(job: Job, error: ErrorInfo) -> bytes:
    """The answer to `job` in the form it asked for (a trace with no tensors: its binary
    form is the JSON behind the binary header)."""
    if job.kind == "gradcheck":
        return GradCheck(ok=False, error=error, eps=0.0).model_dump_json().encode()
    trace = Trace(
        ok=False,
        error=error,
        stdout="",
        device=job.device,
        variables={},
        nodes=[],
        edges=[],
        timeline=[],
        passes=[],
        truncated=False,
        seed=job.seed,
        version=__version__,
    )
    return binary.pack(trace.to_json()) if job.binary else trace.to_json()


def memory_message(memory_mb: int) -> str:
    return f"the program used more than {memory_mb} MiB"


def time_message(timeout_s: float) -> str:
    return f"the program ran longer than {timeout_s:g} s"


def memory_failure(memory_mb: int) -> ErrorInfo:
    return ErrorInfo(type="LimitError", message=memory_message(memory_mb), hint=_SMALLER)


def time_failure(timeout_s: float) -> ErrorInfo:
    return ErrorInfo(
        type="LimitError",
        message=time_message(timeout_s),
        hint="look for a loop that never ends, or make the program do less work",
    )


def death_failure(exit_code: int | None, *, memory_mb: int, timeout_s: float) -> ErrorInfo:
    """A worker that died mid-job: say what most likely stopped it."""
    if exit_code == -signal.SIGXCPU:
        return time_failure(timeout_s)
    if exit_code == -signal.SIGKILL:
        return ErrorInfo(
            type="LimitError",
            message="the program's worker process was killed",
            hint=f"it may have used more than {memory_mb} MiB",
        )
    how = "stopped" if exit_code is None else _describe_exit(exit_code)
    return ErrorInfo(
        type="SystemError",
        message=f"the worker process running the program {how}",
        hint="this is a bug in gradtrace or torch; please report the program",
    )


def bug_failure(problem: str) -> ErrorInfo:
    """The server could not get a trace out of the engine for this program: say so,
    naming the problem, instead of an HTTP 500 (no program may cause one)."""
    return ErrorInfo(
        type="SystemError",
        message=f"gradtrace failed on this program: {problem}",
        hint="this is a bug in gradtrace; please report the program",
    )


def _describe_exit(exit_code: int) -> str:
    if exit_code < 0:
        try:
            return f"was stopped by {signal.Signals(-exit_code).name}"
        except ValueError:
            return f"was stopped by signal {-exit_code}"
    return f"exited with status {exit_code}"


def _gpu_allocated() -> int:
    """Bytes of live CUDA tensors in this process (0 where CUDA is not in use). Not what
    torch's allocator keeps cached: a program can grow that cheaply by freeing blocks of
    one size and asking for another, and torch empties it itself when memory runs out."""
    return int(torch.cuda.memory_allocated()) if torch.cuda.is_initialized() else 0


@dataclass
class MemoryRelabel:
    """A program that ran out of memory fails inside torch or Python with their own words;
    this says which limit it met instead. The job runner applies it to the error before
    the answer is written (nothing is parsed back), and it remembers whether it did.

    The words alone are no proof: a program may raise `RuntimeError("out of memory")`
    itself. So the process starts afresh (`retire`) only if, when the error is written,
    it still holds three quarters of its ceiling more than when the job began: one request
    must not retire a warm worker (a spawned GPU worker takes seconds to warm up again).
    With the default limits a program's live tensors stay below that, so it takes memory
    the language did not count."""

    memory_mb: int
    hit: bool = False
    retire: bool = False
    # Created with the job, before the program runs: what the process held then.
    before: MemoryBound = field(init=False, repr=False, compare=False)
    gpu_before: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.before = MemoryBound(self.memory_mb)
        self.gpu_before = _gpu_allocated()

    def _added(self) -> int:
        """Bytes the process holds beyond what it held when the job began (its GPU's too:
        a GPU worker's ceiling is its share of the device)."""
        return self.before.used() + _gpu_allocated() - self.gpu_before

    def __call__(self, error: dict[str, Any]) -> dict[str, Any]:
        kind = str(error.get("type", ""))
        text = str(error.get("message", "")).lower()
        if kind not in ("MemoryError", "OutOfMemoryError") and not any(
            marker in text for marker in _MEMORY_MARKERS
        ):
            return error
        self.hit = True
        self.retire = self.retire or self._added() * 4 >= self.memory_mb * 2**20 * 3
        return {
            **error,
            "type": "LimitError",
            "message": memory_message(self.memory_mb),
            "hint": _SMALLER,
        }

    def check(self, checked: GradCheck) -> GradCheck:
        """The same for a gradient check's answer."""
        if checked.error is None:
            return checked
        error = self(checked.error.model_dump())
        return checked.model_copy(update={"error": ErrorInfo(**error)}) if self.hit else checked
