"""Today's engine against the engine before issue 15, side by side in one run.

Issue 15 asks that the engine's figures not regress. Its ratios to CPython + torch move
with this VM's host from run to run, so the engine of the commit before issue 15's work
(sandbox_cost.py's, from `git archive` of this checkout's history) runs beside today's:
two processes, one per engine, given the same programs turn about, and again in a second
pair of fresh processes (a process keeps a bias of its own). A control runs today's engine
on both sides the same way: what no change shows in the same run. Each job is timed as
its engine's worker waits for it, until the trace is written; today's frees the job's
objects after that (as its worker does once the trace is sent), the engine before left
them to a collection, run between two timed jobs. Each side starts as its engine's worker
does: it runs the engine's warm-up program and freezes what that left (gc.freeze) before
its first job. Each side's own clock (`elapsed_ms`) splits off running and recording.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.engine_bench import FAMILIES
from bench.sandbox_cost import PRE_SANDBOX_COMMIT, pre_sandbox_backend
from bench.tables import table

ROOT = Path(__file__).resolve().parent.parent
SIZES = (100, 1_000, 10_000)
# Two processes given the same jobs differ by up to ~5 % over 7 rounds, and a process
# keeps its own bias (the same engine on both sides came out at 0.97-1.07x): each program
# is timed by four pairs of fresh processes, this many rounds each. (With two pairs, one
# program's ratio moved by 0.04-0.10 between back-to-back runs of the same code.)
PAIRS = 4
ROUNDS = 6
# Within this of the engine before: no more than the noise of the measure itself, which
# the control (today's engine on both sides) shows for each run.
NO_WORSE_THAN = 1.05
CONTROL_OPS = 1_000

# One engine's side: reads a program per line (JSON), answers the job's time and its
# own clock. The engine is whatever `gradtrace` PYTHONPATH names.
_SIDE = r"""
import gc, inspect, json, sys, time
from gradtrace import Limits
from gradtrace.trace.session import trace_program
limits = Limits(wall_time_s=120, graph_nodes=200_000, total_elements=50_000_000)
deferred = "release_later" in inspect.signature(trace_program).parameters
# Set up as each engine's worker is before its first job: the warm-up program run, then
# what it left frozen out of later collections.
from gradtrace.engine import warm_up
warm_up("cpu")
gc.collect()
gc.freeze()
for line in sys.stdin:
    source = json.loads(line)
    later = []
    options = {"release_later": later} if deferred else {}
    gc.collect()
    start = time.perf_counter()
    payload = trace_program(source, device="cpu", seed=0, limits=limits, **options)
    job_ms = (time.perf_counter() - start) * 1000
    for release in later:
        release()
    at = payload.rindex(b'"elapsed_ms":') + len(b'"elapsed_ms":')
    recorded_ms = float(payload[at:].split(b",")[0].split(b"}")[0])
    del payload
    print(json.dumps([job_ms, recorded_ms]), flush=True)
"""


# One engine's bytecodes for one job, until its trace is written: counted from
# sys.settrace's opcode events, a measure no neighbour of a shared VM moves. Counts are
# kept by file, so that the two engines can be compared part by part.
_BYTECODES = r"""
import collections, json, sys
from gradtrace import Limits
import gradtrace.trace.session as session
from gradtrace.trace.session import trace_program
limits = Limits(wall_time_s=120, graph_nodes=200_000, total_elements=50_000_000)
from gradtrace.engine import warm_up
warm_up("cpu")
source = json.loads(sys.stdin.read())
trace_program(source, device="cpu", seed=0, limits=limits)  # warm
counts = collections.Counter()

def tracer(frame, event, arg):
    frame.f_trace_opcodes = True
    key = frame.f_code.co_filename.rsplit("/", 1)[-1]

    def count(frame, event, arg):
        if event == "opcode":
            counts[key] += 1
        return count

    return count

written = session.dump_trace

def dump_trace(*args, **kwargs):
    sys.settrace(None)  # running and recording end here
    return written(*args, **kwargs)

session.dump_trace = dump_trace
sys.settrace(tracer)
trace_program(source, device="cpu", seed=0, limits=limits)
sys.settrace(None)
print(json.dumps(counts))
"""
BYTECODE_OPS = 400


def _bytecodes(backend: Path, source: str) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", _BYTECODES],
        input=json.dumps(source),
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(backend)},
        cwd=tempfile.gettempdir(),
        timeout=300,
        check=True,
    )
    counts: dict[str, int] = json.loads(done.stdout.strip().splitlines()[-1])
    return counts


def _without_backward(source: str) -> str:
    """The program without its `.backward()` line: its forward pass alone."""
    return "\n".join(line for line in source.splitlines() if ".backward()" not in line)


def _bytecode_rows(before: Path, today: Path) -> list[dict[str, Any]]:
    """Each engine's count for the whole program and for its forward pass alone (the
    backward pass is the difference)."""
    rows = []
    for family, make in FAMILIES.items():
        source = make(BYTECODE_OPS)
        row: dict[str, Any] = {"family": family}
        for name, backend in (("before", before), ("today", today)):
            row[name] = sum(_bytecodes(backend, source).values())
            row[f"{name}_forward"] = sum(_bytecodes(backend, _without_backward(source)).values())
        rows.append(row)
    return rows


def _bytecode_summary(r: dict[str, Any]) -> str:
    forward = r["today_forward"] / r["before_forward"]
    backward = (r["today"] - r["today_forward"]) / (r["before"] - r["before_forward"])
    return (
        f"{r['family']} {r['today'] / r['before']:.3f}x ({r['before']:,} before, "
        f"{r['today']:,} today; its forward pass {forward:.3f}x, its backward pass "
        f"{backward:.3f}x)"
    )


class _Side:
    def __init__(self, backend: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(backend)}
        self.process = subprocess.Popen(
            [sys.executable, "-c", _SIDE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tempfile.gettempdir(),  # not the checkout: its files are not on the path
        )

    def job(self, source: str) -> tuple[float, float]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(source) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError("an engine's side ended")
        job_ms, recorded_ms = json.loads(answer)
        return float(job_ms), float(recorded_ms)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def run_engine_before() -> dict[str, list[dict[str, Any]]] | None:
    """Per program, the medians of each side (`rows`), and the same for today's engine on
    both sides (`control`); None where this checkout lacks the history."""
    with tempfile.TemporaryDirectory() as tmp:
        before = pre_sandbox_backend(Path(tmp))
        if before is None:
            return None
        today = ROOT / "backend"
        rows = _compare({"before": before, "today": today}, SIZES)
        control = _compare({"before": today, "today": today}, (CONTROL_OPS,))
        return {"rows": rows, "control": control, "bytecodes": _bytecode_rows(before, today)}


def _compare(backends: dict[str, Path], sizes: tuple[int, ...]) -> list[dict[str, Any]]:
    rows = []
    for family, make in FAMILIES.items():
        runs: dict[int, dict[str, list[tuple[float, float]]]] = {
            ops: {name: [] for name in backends} for ops in sizes
        }
        for _ in range(PAIRS):
            sides = {name: _Side(path) for name, path in backends.items()}
            try:
                for ops in sizes:
                    _measure(sides, make(ops), runs[ops])
            finally:
                for side in sides.values():
                    side.close()
        for ops in sizes:
            rows.append({"family": family, "ops": ops, **_medians(runs[ops])})
            r = rows[-1]
            print(
                f"  {family:13s} {ops:>6,} ops: job {r['job_ratio']:.2f}x, "
                f"running and recording {r['recording_ratio']:.2f}x",
                flush=True,
            )
    return rows


def _measure(
    sides: dict[str, _Side], source: str, times: dict[str, list[tuple[float, float]]]
) -> None:
    for side in sides.values():
        side.job(source)  # warm
    order = list(sides)
    for round_ in range(ROUNDS):
        for name in order[round_ % 2 :] + order[: round_ % 2]:
            times[name].append(sides[name].job(source))


def _medians(times: dict[str, list[tuple[float, float]]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for name, runs in times.items():
        out[f"{name}_job_ms"] = statistics.median(job for job, _ in runs)
        out[f"{name}_recording_ms"] = statistics.median(rec for _, rec in runs)
    out["job_ratio"] = out["today_job_ms"] / out["before_job_ms"]
    out["recording_ratio"] = out["today_recording_ms"] / out["before_recording_ms"]
    return out


def markdown(result: dict[str, list[dict[str, Any]]] | None) -> str:
    if result is None:
        return (
            "The engine before issue 15 could not be run here (this checkout lacks commit "
            f"{PRE_SANDBOX_COMMIT[:7]}: a shallow clone or a tarball).\n"
        )
    rows, control = result["rows"], result["control"]
    header = [
        "program", "ops", "job before (ms)", "job today (ms)", "today / before",
        "running and recording before (ms)", "today (ms)", "today / before",
    ]  # fmt: skip
    body = table(
        header,
        (
            [
                r["family"],
                f"{r['ops']:,}",
                f"{r['before_job_ms']:.1f}",
                f"{r['today_job_ms']:.1f}",
                f"{r['job_ratio']:.2f}x",
                f"{r['before_recording_ms']:.1f}",
                f"{r['today_recording_ms']:.1f}",
                f"{r['recording_ratio']:.2f}x",
            ]
            for r in rows
        ),
    )
    bytecodes = "; ".join(_bytecode_summary(r) for r in result.get("bytecodes", []))
    jobs = [r["job_ratio"] for r in rows]
    recordings = [r["recording_ratio"] for r in rows]
    control_jobs = [r["job_ratio"] for r in control]
    control_recordings = [r["recording_ratio"] for r in control]

    def verdict(ratios: list[float]) -> str:
        return "met" if max(ratios) <= NO_WORSE_THAN else "not met"

    return (
        f"{body}\n\n"
        f"Today's engine over the engine before issue 15 (commit {PRE_SANDBOX_COMMIT[:7]}), "
        f"the medians of {PAIRS * ROUNDS} jobs each ({PAIRS} pairs of fresh processes, "
        f"{ROUNDS} rounds each, turn about): the whole job {min(jobs):.2f}-{max(jobs):.2f}x, "
        f"running and recording alone {min(recordings):.2f}-{max(recordings):.2f}x.\n\n"
        f"The control, today's engine on both sides the same way at {CONTROL_OPS:,} ops: "
        f"the whole job {min(control_jobs):.2f}-{max(control_jobs):.2f}x, running and "
        f"recording {min(control_recordings):.2f}-{max(control_recordings):.2f}x (what "
        f"no change at all shows in this run).\n\n"
        f"Bytecodes run by one job at {BYTECODE_OPS:,} ops, running and recording, today's "
        f"over the engine before (sys.settrace's opcode events; the same count every run, "
        f"whatever the host; C work such as torch's kernels and hooks' calls not counted; "
        f"the forward pass is the program run without its `.backward()` line): "
        f"{bytecodes}.\n\n"
        f"Target: no regression (at most {NO_WORSE_THAN}x, about the noise of this "
        f"measure): whole job **{verdict(jobs)}**; running and recording "
        f"**{verdict(recordings)}**.\n"
    )


if __name__ == "__main__":
    print(markdown(run_engine_before()))
