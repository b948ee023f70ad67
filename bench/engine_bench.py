"""Trace cost against CPython + torch running the same program, side by side in one run.

Three program families (a scalar chain, a small MLP, an unrolled RNN) at about 10, 100,
1,000 and 10,000 tensor ops. For each: the median time of the program under CPython +
torch (the file run with runpy after the same seed, one torch thread, like the engine),
the median time of gradtrace tracing it to JSON bytes, their ratio, the payload size,
and `gradtrace.run` (the same job giving the Trace as objects) against the job; then the
same job writing the binary trace (trace/binary.py) turn about with the JSON one: each
form's writing time and size, and the whole job's ratio to CPython + torch with binary
writing.

What is timed is what a caller waits for: the call, until it returns. Each result is let
go after the clock stops, and a full collection runs between two timed calls, so neither
side pays for the other's garbage. A worker sends the trace and then frees the job's
objects (`release_later`): the job is timed until its trace is written, and the freeing
apart. Letting go of `gradtrace.run`'s Trace (freeing its objects, when the caller drops
it) is timed apart too; gradtrace.run frees the job's own objects before it returns, so it
is compared with the job and its freeing.
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import runpy
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import torch

from bench.language_floor import run_language_only
from bench.lean_recording import columnar_job, lean_job
from bench.tables import table
from gradtrace import Limits, Trace
from gradtrace.trace.binary import split
from gradtrace.trace.session import trace_object, trace_program

REPEATS = 7
SIZES = (10, 100, 1_000, 10_000)
LIMITS = Limits(wall_time_s=120, graph_nodes=200_000, total_elements=50_000_000)


def chain(ops: int) -> str:
    return f"""import torch
x = torch.tensor(0.5, requires_grad=True)
y = x
for i in range({max(ops // 2, 1)}):
    y = y * 0.999 + 0.001
y.backward()
print(x.grad)
"""


def mlp(ops: int) -> str:
    layers = max(ops // 4, 1)
    return f"""import torch
torch.manual_seed(0)
Ws = [torch.randn(64, 64, requires_grad=True) for i in range({layers})]
h = torch.randn(8, 64)
for W in Ws:
    h = torch.tanh(h @ W * 0.1)
loss = h.pow(2).mean()
loss.backward()
print(loss.item())
"""


def rnn(ops: int) -> str:
    steps = max(ops // 6, 1)
    return f"""import torch
torch.manual_seed(0)
Wh = torch.randn(16, 16, requires_grad=True)
Wx = torch.randn(4, 16, requires_grad=True)
b = torch.zeros(16, requires_grad=True)
xs = torch.randn({steps}, 1, 4)
h = torch.zeros(1, 16)
for t in range({steps}):
    h = torch.tanh(h @ Wh * 0.1 + xs[t] @ Wx + b)
loss = h.sum()
loss.backward()
print(loss.item())
"""


FAMILIES = {"scalar chain": chain, "MLP 64-wide": mlp, "unrolled RNN": rnn}


class _Answered:
    """A job's trace, sent: the job's objects are freed after it, as a worker frees them
    once the trace is on its way (`free`, timed apart from the job)."""

    def __init__(self, payload: bytes, release_later: list[Callable[[], None]]) -> None:
        self.payload = payload
        self.release_later = release_later

    def free(self) -> float:
        start = time.perf_counter()
        while self.release_later:
            self.release_later.pop()()
        return (time.perf_counter() - start) * 1000


def _alternating_ms(
    *fns: Any, dropped: list[float] | None = None, freed: list[float] | None = None
) -> tuple[list[float], ...]:
    """Times (ms) of functions run turn about, so a slow spell of the machine (a shared VM
    has them) falls on every side of a ratio rather than on one; each round starts with
    the next function, so none always follows the same other one. Each result is dropped
    after the clock stops (the time that takes for the last function's goes to
    `dropped`; a job's freeing goes to `freed`), and the garbage collected before the
    next call."""
    for fn in fns:
        warm = fn()
        if isinstance(warm, _Answered):
            # Freed as the timed runs' are: a job left unfreed keeps the cyclic GC off
            # (a job turns it back on as it frees) and its heap for every later job.
            warm.free()
        del warm
    times: tuple[list[float], ...] = tuple([] for _ in fns)
    last = len(fns) - 1
    for round_ in range(REPEATS):
        for k in range(len(fns)):
            at = (round_ + k) % len(fns)
            gc.collect()
            start = time.perf_counter()
            result = fns[at]()
            stopped = time.perf_counter()
            times[at].append((stopped - start) * 1000)
            if isinstance(result, _Answered):
                spent = result.free()
                if freed is not None:
                    freed.append(spent)
            del result
            if dropped is not None and at == last:
                dropped.append((time.perf_counter() - stopped) * 1000)
    gc.collect()
    return times


def _recorded_ms(payload: bytes) -> float:
    """The trace's own clock (running and recording), read from either form."""
    head = split(payload)[0] if payload[:4] == b"GTRB" else payload
    return float(orjson.loads(head)["elapsed_ms"])


def measure(source: str) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
        path = f.name
    threads = torch.get_num_threads()

    def reference() -> None:
        torch.set_num_threads(1)
        torch.manual_seed(0)
        with contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(path, run_name="__main__")
        torch.set_num_threads(threads)

    payloads: list[bytes] = []

    def traced() -> _Answered:
        """The job as a worker runs it: until the trace is written."""
        later: list[Callable[[], None]] = []
        payload = trace_program(source, device="cpu", seed=0, limits=LIMITS, release_later=later)
        payloads.append(payload)  # read after the clock stops
        return _Answered(payload, later)

    def traced_and_freed() -> bytes:
        """The job with its objects freed before it returns, as gradtrace.run frees them."""
        payload = trace_program(source, device="cpu", seed=0, limits=LIMITS)
        payloads.append(payload)
        return payload

    try:
        freeing: list[float] = []
        cpython_runs, gradtrace_runs = _alternating_ms(reference, traced, freed=freeing)
        cpython_ms = statistics.median(cpython_runs)
        gradtrace_ms = statistics.median(gradtrace_runs)
        # The trace's own clock stops when the program and its recording are done, before
        # the JSON is written: the rest of the wall time is writing it.
        recorded_ms = statistics.median(_recorded_ms(p) for p in payloads[1:])
        payloads.clear()
        # gradtrace.run, the Python API, against the job the service runs, turn about.
        drop_runs: list[float] = []
        job_runs, api_runs = _alternating_ms(
            traced_and_freed,
            lambda: trace_object(source, device="cpu", seed=0, limits=LIMITS),
            dropped=drop_runs,
        )
        payloads.clear()
        # The binary form against JSON and CPython + torch, turn about.
        binaries: list[bytes] = []

        def traced_binary() -> _Answered:
            later: list[Callable[[], None]] = []
            binary = trace_program(
                source, device="cpu", seed=0, limits=LIMITS, binary=True, release_later=later
            )
            binaries.append(binary)
            return _Answered(binary, later)

        cpython_again, json_runs, binary_runs = _alternating_ms(reference, traced, traced_binary)
        # The floor: the program run by the language with nothing recorded, turn about.

        def language_only() -> None:
            with contextlib.redirect_stdout(io.StringIO()):
                run_language_only(source, LIMITS)

        def lean() -> _Answered:
            later: list[Callable[[], None]] = []
            return _Answered(lean_job(source, LIMITS, later), later)

        def columnar() -> _Answered:
            later: list[Callable[[], None]] = []
            return _Answered(columnar_job(source, LIMITS, later), later)

        def job() -> _Answered:
            later: list[Callable[[], None]] = []
            payload = trace_program(
                source, device="cpu", seed=0, limits=LIMITS, release_later=later
            )
            return _Answered(payload, later)

        cpython_floor, language_runs, lean_runs, columnar_runs, floor_job_runs = _alternating_ms(
            reference, language_only, lean, columnar, job
        )
        lean_payload = lean_job(source, LIMITS)
        columnar_payload = columnar_job(source, LIMITS)
        json_writing = [t - _recorded_ms(p) for t, p in zip(json_runs, payloads[1:])]
        binary_writing = [t - _recorded_ms(p) for t, p in zip(binary_runs, binaries[1:])]
        binary_payload = binaries[-1]
        payloads.clear()
        payload = traced_and_freed()
        trace = Trace.model_validate_json(payload)
    finally:
        Path(path).unlink()
    assert trace.ok, trace.error
    # The lean recorder writes the same trace: as many nodes, as many timeline events.
    lean_trace = orjson.loads(lean_payload)
    assert len(lean_trace["nodes"]) == len(trace.nodes), "the lean trace's nodes differ"
    backward = [e for e in trace.timeline if e.phase in ("forward", "backward")]
    assert len(lean_trace["timeline"]) == len(backward), "the lean trace's events differ"
    return {
        "nodes": len(trace.nodes),
        "cpython_ms": cpython_ms,
        "gradtrace_ms": gradtrace_ms,
        "ratio": gradtrace_ms / cpython_ms,
        # Each side's fastest run: the least disturbed by the neighbours of a shared machine.
        "best_ratio": min(gradtrace_runs) / min(cpython_runs),
        "freeing_ms": statistics.median(freeing),
        "recording_ms": recorded_ms,
        "recording_ratio": recorded_ms / cpython_ms,
        "writing_ms": max(gradtrace_ms - recorded_ms, 0.0),
        "payload_bytes": len(payload),
        "api_ms": statistics.median(api_runs),
        "api_ratio": statistics.median(api_runs) / statistics.median(job_runs),
        "api_drop_ms": statistics.median(drop_runs),
        "json_writing_ms": max(statistics.median(json_writing), 0.0),
        "binary_writing_ms": max(statistics.median(binary_writing), 0.0),
        "binary_payload_bytes": len(binary_payload),
        "json_job_ratio": statistics.median(json_runs) / statistics.median(cpython_again),
        "binary_job_ratio": statistics.median(binary_runs) / statistics.median(cpython_again),
        "language_ms": statistics.median(language_runs),
        "language_ratio": statistics.median(language_runs) / statistics.median(cpython_floor),
        "floor_cpython_ms": statistics.median(cpython_floor),
        "lean_ratio": statistics.median(lean_runs) / statistics.median(cpython_floor),
        "columnar_ratio": statistics.median(columnar_runs) / statistics.median(cpython_floor),
        "floor_job_ratio": statistics.median(floor_job_runs) / statistics.median(cpython_floor),
        "lean_payload_bytes": len(lean_payload),
        "columnar_payload_bytes": len(columnar_payload),
    }


def _measured_apart(source: str) -> dict[str, Any]:
    """measure(source) in a process forked for it: a program starts from the heap of a
    process that ran no job, as a new worker does. The heap a 10,000-op job leaves freed
    (~250 MB in ~100,000 chunks) made every later job's memory bound walk it (26 ms a
    walk): a worker retires after such a job (sandbox/worker.py), so no later program of
    the bench should pay for it either."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            os.close(r)
            data = orjson.dumps(measure(source))
            view = memoryview(data)
            while view:
                view = view[os.write(w, view) :]
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    chunks = []
    while chunk := os.read(r, 1 << 16):
        chunks.append(chunk)
    os.close(r)
    _, status = os.waitpid(pid, 0)
    if status != 0 or not chunks:
        raise RuntimeError(f"measuring a program failed in its process (wait status {status})")
    return orjson.loads(b"".join(chunks))  # type: ignore[no-any-return]


def run_engine_bench() -> list[dict[str, Any]]:
    rows = []
    for family, make in FAMILIES.items():
        for ops in SIZES:
            row = {"family": family, "ops": ops, **_measured_apart(make(ops))}
            rows.append(row)
            print(
                f"  {family:13s} {ops:>6,} ops: cpython {row['cpython_ms']:8.1f} ms, "
                f"gradtrace {row['gradtrace_ms']:8.1f} ms ({row['ratio']:.2f}x); writing JSON "
                f"{row['json_writing_ms']:.1f} ms, binary {row['binary_writing_ms']:.1f} ms; "
                f"{row['payload_bytes'] / 1e6:.2f} MB against {row['binary_payload_bytes'] / 1e6:.2f} MB; "
                f"job {row['json_job_ratio']:.2f}x JSON, {row['binary_job_ratio']:.2f}x binary",
                flush=True,
            )
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    header = [
        "program", "ops", "nodes", "CPython + torch (ms)", "gradtrace (ms)", "ratio",
        "ratio of the best runs", "running and recording (ms)", "its ratio",
        "writing the JSON (ms)", "payload", "then freeing the job (ms)", "gradtrace.run (ms)",
        "its ratio to the job",
        "dropping its Trace (ms)",
        "writing JSON / binary, turn about (ms)", "binary payload", "job ratio, JSON / binary",
    ]  # fmt: skip
    return (
        table(
            header,
            (
                [
                    r["family"],
                    f"{r['ops']:,}",
                    f"{r['nodes']:,}",
                    f"{r['cpython_ms']:.1f}",
                    f"{r['gradtrace_ms']:.1f}",
                    f"{r['ratio']:.2f}x",
                    f"{r['best_ratio']:.2f}x",
                    f"{r['recording_ms']:.1f}",
                    f"{r['recording_ratio']:.2f}x",
                    f"{r['writing_ms']:.1f}",
                    f"{r['payload_bytes'] / 1e6:.2f} MB",
                    f"{r['freeing_ms']:.1f}",
                    f"{r['api_ms']:.1f}",
                    f"{r['api_ratio']:.2f}x",
                    f"{r['api_drop_ms']:.1f}",
                    f"{r['json_writing_ms']:.1f} / {r['binary_writing_ms']:.1f}",
                    f"{r['binary_payload_bytes'] / 1e6:.2f} MB",
                    f"{r['json_job_ratio']:.2f}x / {r['binary_job_ratio']:.2f}x",
                ]
                for r in rows
            ),
        )
        + "\n\n"
        + _job_targets(rows)
        + "\n\n"
        + _api_target(rows)
        + "\n\n"
        + _floor(rows)
    )


def _floor(rows: list[dict[str, Any]]) -> str:
    """What no design of the recorder and the writer can go below (lean_recording.py):
    the language alone, and a recorder doing the least the trace needs, writing this
    trace and writing it in columns, turn about with CPython + torch and the job."""
    big = [r for r in rows if r["ops"] >= 1000]
    lines = table(
        [
            "program", "ops", "CPython + torch (ms)", "the language alone", "lean, this trace",
            "lean, in columns", "the job", "payload: the job / lean / columns",
            "recording and writing per node (us)", "per node within 3x (us)",
        ],
        (
            [
                r["family"],
                f"{r['ops']:,}",
                f"{r['floor_cpython_ms']:.1f}",
                f"{r['language_ratio']:.2f}x",
                f"{r['lean_ratio']:.2f}x",
                f"{r['columnar_ratio']:.2f}x",
                f"{r['floor_job_ratio']:.2f}x",
                f"{r['payload_bytes'] / 1e6:.1f} / {r['lean_payload_bytes'] / 1e6:.1f} / "
                f"{r['columnar_payload_bytes'] / 1e6:.1f} MB",
                f"{(r['gradtrace_ms'] - r['language_ms']) * 1000 / r['nodes']:.1f}",
                f"{(3 - r['language_ratio']) * r['cpython_ms'] * 1000 / r['nodes']:.1f}",
            ]
            for r in big
        ),
    )  # fmt: skip
    lean = max(big, key=lambda r: r["lean_ratio"])
    columns = max(big, key=lambda r: r["columnar_ratio"])
    return (
        "Where the whole job's time goes, and what no design of the recorder and the writer "
        "goes below (bench/lean_recording.py). Turn about with CPython + torch and the job: "
        "the program run by gradtrace's language with nothing recorded; then with a lean "
        "recorder that does the least the trace needs (each result appended to three lists, "
        "a post-hook on every Node in a backward pass, nothing else: no versions, budget, "
        "pruning, saved tensors, modules or leaf ledger) and writes the same trace (the same "
        "nodes and forward and backward events, checked; each TensorData made once, in bulk); "
        "and the lean recorder writing the trace in columns (no object per node, edge, "
        "event or tensor: each field one array, tensors by reference into one block per "
        "shape). The last two columns: the time per node that recording and writing add to "
        "the language alone, and what they may add within 3x, (3 - the language's ratio) x "
        "CPython's time, per node.\n\n" + lines + "\n\n"
        f"The lean recorder writing this trace: at most {lean['lean_ratio']:.2f}x "
        f"({lean['family']}, {lean['ops']:,} ops); in columns: at most "
        f"{columns['columnar_ratio']:.2f}x ({columns['family']}, {columns['ops']:,} ops). "
        f"Within 3x: this trace **{'yes' if lean['lean_ratio'] <= 3 else 'no'}**, in "
        f"columns **{'yes' if columns['columnar_ratio'] <= 3 else 'no'}**."
    )


def _job_targets(rows: list[dict[str, Any]]) -> str:
    """The whole job within 3x of CPython + torch at 1,000 ops and above; a 10,000-op
    program traced in under 1 s."""
    big = [r for r in rows if r["ops"] >= 1000]
    if not big:
        return ""
    worst = max(big, key=lambda r: r["ratio"])
    slowest = max((r for r in rows if r["ops"] >= 10_000), key=lambda r: r["gradtrace_ms"])
    within = "met" if worst["ratio"] <= 3 else "not met"
    fast = "met" if slowest["gradtrace_ms"] < 1000 else "not met"
    return (
        f"The whole job against CPython + torch at 1,000 ops and above: at most "
        f"{worst['ratio']:.2f}x ({worst['family']}, {worst['ops']:,} ops). Target ≤ 3×: "
        f"**{within}**. The slowest 10,000-op job ({slowest['family']}) took "
        f"{slowest['gradtrace_ms']:.0f} ms. Target < 1 s: **{fast}**."
    )


def _api_target(rows: list[dict[str, Any]]) -> str:
    """gradtrace.run at most 1.2x the engine job at 1,000 ops and above."""
    big = [r for r in rows if r["ops"] >= 1000]
    worst = max((r["api_ratio"] for r in big), default=0.0)
    verdict = "met" if worst <= 1.2 else "not met"
    return (
        f"`gradtrace.run` (the Trace as Python objects) against the job (JSON bytes), each "
        f"timed from the call until it returns, at 1,000 ops and above: at most "
        f"{worst:.2f}x. Target ≤ 1.2x: **{verdict}**."
    )


if __name__ == "__main__":
    print(markdown(run_engine_bench()))
