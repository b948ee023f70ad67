"""Two checkouts of gradtrace side by side: the whole job (running, recording, writing the
JSON trace) of bench/engine_bench.py's programs, in CPU time, turn about.

    python bench/recording_ab.py BACKEND_A BACKEND_B [ops ...]

Each BACKEND is a `backend/` folder. With AB_THREADS=n in the environment every worker runs
on n torch threads (a sandboxed worker runs on one); else torch's default. One warm worker process per checkout (and one for
CPython + torch) answers "run this program once" on its stdin; the driver asks them in
turn, each round starting with the next one, and prints the medians of REPEATS runs.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import runpy
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPEATS = 7
_HERE = Path(__file__).resolve().parent.parent


def _worker(backend: str) -> None:
    """Answer each line (family, ops) with the CPU ms of one job; "cpython" runs the file."""
    import torch

    if os.environ.get("AB_THREADS"):
        torch.set_num_threads(int(os.environ["AB_THREADS"]))
    sys.path.insert(0, backend)
    sys.path.insert(0, str(_HERE))
    from bench.engine_bench import FAMILIES, LIMITS

    for line in sys.stdin:
        family, ops = json.loads(line)
        source = FAMILIES[family](ops)
        gc.collect()
        if backend == "cpython":
            with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
                f.write(source)
            threads = torch.get_num_threads()
            start = time.process_time()
            torch.set_num_threads(1)
            torch.manual_seed(0)
            with contextlib.redirect_stdout(io.StringIO()):
                runpy.run_path(f.name, run_name="__main__")
            torch.set_num_threads(threads)
            ms = (time.process_time() - start) * 1000
            Path(f.name).unlink()
        else:
            from gradtrace.trace.session import trace_program

            start = time.process_time()
            payload = trace_program(source, device="cpu", seed=0, limits=LIMITS)
            ms = (time.process_time() - start) * 1000
            del payload
        print(json.dumps(ms), flush=True)


def main(a: str, b: str, sizes: list[int]) -> None:
    sides = {"cpython": "cpython", "A": a, "B": b}
    workers = {
        name: subprocess.Popen(
            [sys.executable, __file__, "--worker", backend],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name, backend in sides.items()
    }

    def ask(name: str, family: str, ops: int) -> float:
        proc = workers[name]
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps([family, ops]) + "\n")
        proc.stdin.flush()
        return float(json.loads(proc.stdout.readline()))

    names = list(sides)
    print("| program | ops | CPython + torch (ms) | A (ms) | B (ms) | A ratio | B ratio | B/A |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for family in ("scalar chain", "MLP 64-wide", "unrolled RNN"):
        for ops in sizes:
            for name in names:
                ask(name, family, ops)  # warm
            times: dict[str, list[float]] = {name: [] for name in names}
            for round_ in range(REPEATS):
                for k in range(len(names)):
                    name = names[(round_ + k) % len(names)]
                    times[name].append(ask(name, family, ops))
            c, ma, mb = (statistics.median(times[n]) for n in names)
            print(
                f"| {family} | {ops:,} | {c:.1f} | {ma:.1f} | {mb:.1f} | {ma / c:.2f}x "
                f"| {mb / c:.2f}x | {mb / ma:.2f} |",
                flush=True,
            )
    for proc in workers.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()


if __name__ == "__main__":
    if sys.argv[1] == "--worker":
        _worker(sys.argv[2])
    else:
        main(sys.argv[1], sys.argv[2], [int(n) for n in sys.argv[3:]] or [1_000, 10_000])
