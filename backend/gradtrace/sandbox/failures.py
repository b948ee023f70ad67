"""Traces for programs the sandbox had to stop: ok false, the error, nothing recorded."""

from __future__ import annotations

import signal

import orjson

from gradtrace.trace.models import ErrorInfo, Trace
from gradtrace.version import __version__

_MEMORY_MARKERS = ("can't allocate memory", "cannot allocate memory", "out of memory")


def failure_trace(
    *, device: str, seed: int, type_: str, message: str, hint: str | None = None
) -> bytes:
    trace = Trace(
        ok=False,
        error=ErrorInfo(type=type_, message=message, hint=hint),
        stdout="",
        device=device,
        variables={},
        nodes=[],
        edges=[],
        timeline=[],
        passes=[],
        truncated=False,
        seed=seed,
        version=__version__,
    )
    return trace.to_json()


def memory_message(memory_mb: int) -> str:
    return f"the program used more than {memory_mb} MiB"


def time_message(timeout_s: float) -> str:
    return f"the program ran longer than {timeout_s:g} s"


def memory_failure(*, device: str, seed: int, memory_mb: int) -> bytes:
    return failure_trace(
        device=device,
        seed=seed,
        type_="LimitError",
        message=memory_message(memory_mb),
        hint="make the tensors or lists smaller",
    )


def time_failure(*, device: str, seed: int, timeout_s: float) -> bytes:
    return failure_trace(
        device=device,
        seed=seed,
        type_="LimitError",
        message=time_message(timeout_s),
        hint="look for a loop that never ends, or make the program do less work",
    )


def death_failure(
    *, device: str, seed: int, exit_code: int | None, memory_mb: int, timeout_s: float
) -> bytes:
    """A worker that died mid-job: say what most likely stopped it."""
    if exit_code == -signal.SIGXCPU:
        return time_failure(device=device, seed=seed, timeout_s=timeout_s)
    if exit_code == -signal.SIGKILL:
        message = "the program's worker process was killed"
        hint = f"it may have used more than {memory_mb} MiB"
        return failure_trace(
            device=device, seed=seed, type_="LimitError", message=message, hint=hint
        )
    how = "stopped" if exit_code is None else _describe_exit(exit_code)
    return failure_trace(
        device=device,
        seed=seed,
        type_="SystemError",
        message=f"the worker process running the program {how}",
        hint="this is a bug in gradtrace or torch; please report the program",
    )


def bug_failure(*, device: str, seed: int, problem: str) -> bytes:
    """The server could not get a trace out of the engine for this program: say so,
    naming the problem, instead of an HTTP 500 (no program may cause one)."""
    return failure_trace(
        device=device,
        seed=seed,
        type_="SystemError",
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


def relabel_memory_error(body: bytes, *, memory_mb: int) -> tuple[bytes, bool]:
    """A program that ran out of memory fails inside torch or Python with their own words;
    say which limit it met instead. Returns the body and whether it was a memory failure."""
    # orjson writes fields in model order, so "ok" sits near the start: a cheap check first.
    if b'"ok":false' not in body[:200]:
        return body, False
    trace = orjson.loads(body)
    error = trace.get("error") or {}
    kind = str(error.get("type", ""))
    text = str(error.get("message", "")).lower()
    is_memory = kind in ("MemoryError", "OutOfMemoryError") or any(
        marker in text for marker in _MEMORY_MARKERS
    )
    if not is_memory:
        return body, False
    error.update(
        type="LimitError",
        message=memory_message(memory_mb),
        hint="make the tensors or lists smaller",
    )
    trace["error"] = error
    return orjson.dumps(trace), True


def gradcheck_failure(trace_body: bytes) -> bytes:
    """A gradient check whose worker was stopped: the same error, in the check's shape."""
    error = orjson.loads(trace_body).get("error")
    return orjson.dumps({"ok": False, "error": error, "eps": 0.0, "leaves": [], "note": None})
