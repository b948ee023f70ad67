"""`make bench`: run every benchmark side by side on this machine, rewrite BENCHMARKS.md."""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

import torch

from bench.host_probe import probe_ms
from bench.tables import table

ROOT = Path(__file__).resolve().parent.parent


def _machine() -> str:
    cpus = os.cpu_count()
    return (
        f"{platform.machine()}, {cpus} cores, Python {platform.python_version()}, "
        f"torch {torch.__version__}, {platform.system()} {platform.release()}"
    )


def _section_engine() -> str:
    from bench.engine_bench import markdown, run_engine_bench

    print("engine:", flush=True)
    rows = run_engine_bench()
    return "## Engine: trace cost against CPython + torch\n\n" + (
        "Each program runs under CPython + torch (runpy, same seed, one torch thread) and "
        "through `gradtrace` to JSON bytes, alternately (one run of each in turn), in one "
        "process; medians of 7 runs each. "
        "`gradtrace (ms)` is the whole job; it splits into running the program with its "
        "recording (hooks, snapshots, the graph; the trace's `elapsed_ms`) and writing the "
        "JSON (TensorData numbers and stats, nodes, timeline), until the trace is ready to "
        "send. A worker frees the job's objects once it has sent the trace: that comes after "
        "the job, timed apart (`then freeing the job`). `gradtrace.run` is compared with the "
        "job with its freeing, as it frees them before it returns.\n"
        "Targets: ≤ 3× at 1,000 ops and above; a 10,000-op program traced in under 1 s.\n\n"
        + markdown(rows)
        + "\n"
    )


def _section_engine_before() -> str:
    from bench.engine_before import markdown, run_engine_before

    print("engine against the engine before issue 15:", flush=True)
    return (
        "## Engine: today against the engine before issue 15\n\n"
        "The same programs through today's engine and the engine of the commit before issue "
        "15's work (the sandbox, the checked callables), one process each (two pairs of "
        "fresh processes), turn about: a ratio to CPython + torch moves with the host from "
        "run to run, this one does not; a control gives today's engine to both sides. "
        "Each process starts as its engine's worker does (the engine's warm-up program run, "
        "what it left frozen out of later collections). "
        "Each job is timed until its trace is written (today's frees its objects after that, "
        "as its worker does once the trace is sent; the engine before left them to a "
        "collection between two timed jobs); each side's own clock gives running and "
        "recording.\n\n" + markdown(run_engine_before()) + "\n"
    )


def _section_capture() -> str:
    # Its own process: TorchLens wraps torch's functions process-wide once it has run.
    print("capture:", flush=True)
    done = subprocess.run(
        [sys.executable, "-m", "bench.capture_bench"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "PYTHONPATH": f"{ROOT / 'backend'}:{ROOT}"},
    )
    print(done.stderr, end="", flush=True)
    if done.returncode != 0:
        return (
            "## Python API: capture against TorchLens\n\nThe benchmark failed:\n\n```\n"
            + done.stderr[-2000:]
            + "\n```\n"
        )
    return done.stdout


def _section_server() -> str:
    from bench.server_bench import markdown, run_server_bench

    print("server:", flush=True)
    return "## Service: requests through the sandbox\n\n" + markdown(run_server_bench()) + "\n"


def _section_fair_queue() -> str:
    from bench.fair_queue_bench import markdown, run_fair_queue_bench

    print("fair queue:", flush=True)
    return "## The fair queue: a job handed out\n\n" + markdown(run_fair_queue_bench()) + "\n"


def _section_rooms() -> str:
    from bench.rooms_bench import markdown, run_rooms_bench

    print("rooms:", flush=True)
    return "## Rooms and replicas\n\n" + markdown(run_rooms_bench()) + "\n"


def _section_browser() -> str | None:
    package = ROOT / "frontend" / "package.json"
    if not package.exists() or '"bench"' not in package.read_text():
        return None
    print("browser:", flush=True)
    done = subprocess.run(
        ["npm", "run", "--silent", "bench"],
        cwd=ROOT / "frontend",
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode != 0:
        return (
            "## Browser\n\nThe browser benchmark failed:\n\n```\n" + done.stderr[-2000:] + "\n```\n"
        )
    output = done.stdout.strip()
    try:
        data = json.loads(output[output.index("{") :])
    except (json.JSONDecodeError, ValueError):
        return "## Browser\n\n```\n" + output[-4000:] + "\n```\n"
    text = (
        "## Browser: first picture and frame rate\n\n"
        f"In {data.get('device', 'headless chromium')} against the real server: the time "
        "from pressing Run to the first complete picture (the server's trace, then layout in the "
        "worker and the first canvas frame), the part of it after the trace's response, and "
        "frames per second while playing at 16×, zoomed in and "
        "with the whole graph on screen (graphs over 1,500 nodes open grouped into blocks; the fps rows are measured after expanding every block). Targets: ≤ 1 s to the picture at 2,000 nodes; ≥ 55 fps.\n\n"
        + _browser_table(data)
        + "\n\nThe raw figures:\n\n```json\n"
        + json.dumps(data, indent=2)
        + "\n```\n"
    )
    from bench.torchviz_bench import markdown as torchviz_markdown
    from bench.torchviz_bench import run_torchviz_bench

    rows = run_torchviz_bench()
    if rows:
        text += (
            "\nThe same graphs through torchviz + Graphviz `dot` (a static SVG without values), "
            "for comparison:\n\n" + torchviz_markdown(rows) + "\n"
        )
    return text


def _browser_table(data: dict[str, Any]) -> str:
    header = [
        "program", "nodes", "Run → picture (ms)", "response → first picture (ms)",
        "expanding the groups → picture (ms)", "fps playing (zoomed)",
        "fps playing (whole graph)",
    ]  # fmt: skip
    rows = []
    for size in data.get("sizes", []):
        playing = size.get("playing", {})
        first = size.get("firstPictureMs")
        rows.append(
            [
                f"~{size.get('target', 0):,} nodes",
                size.get("nodes", "?"),
                size.get("requestToPictureMs", "?"),
                round(first) if isinstance(first, (int, float)) else "?",
                size.get("ungroupedPictureMs") or "not grouped",
                playing.get("zoomed", {}).get("fps", "?"),
                playing.get("whole", {}).get("fps", "?"),
            ]
        )
    return table(header, rows) + "\n\n" + _browser_targets(data)


def _browser_targets(data: dict[str, Any]) -> str:
    sizes = data.get("sizes", [])
    at_2000 = [s for s in sizes if s.get("target") == 2000]
    picture = at_2000[0].get("requestToPictureMs") if at_2000 else None
    fps = [
        s.get("playing", {}).get(view, {}).get("fps", 0)
        for s in sizes
        for view in ("zoomed", "whole")
    ]
    lines = []
    if isinstance(picture, (int, float)):
        lines.append(
            f"Run → picture at 2,000 nodes: {picture:,.0f} ms. Target ≤ 1,000 ms: "
            f"**{'met' if picture <= 1000 else 'not met'}**."
        )
    if fps:
        lines.append(
            f"Slowest frame rate playing: {min(fps):.1f} fps. Target ≥ 55 fps: "
            f"**{'met' if min(fps) >= 55 else 'not met'}**."
        )
    return "\n\n".join(lines)


def main() -> None:
    probe_before = probe_ms()
    sections = [_section_engine()]
    for extra in (
        _section_engine_before,
        _section_capture,
        _section_server,
        _section_fair_queue,
        _section_rooms,
        _section_browser,
    ):
        text = extra()
        if text:
            sections.append(text)
    probe_after = probe_ms()
    header = (
        "# gradtrace benchmarks\n\n"
        f"Measured by `make bench` on {datetime.date.today().isoformat()}: {_machine()}.\n"
        "Every figure is a median or a ratio measured side by side in the same run; rerun "
        "`make bench` to regenerate this file.\n\n"
        f"How busy the host was (bench/host_probe.py, a fixed pure-Python loop, best of 3; "
        f"about 60-70 ms on a quiet day here): {probe_before:.0f} ms at the start of the run, "
        f"{probe_after:.0f} ms at the end.\n\n"
    )
    (ROOT / "BENCHMARKS.md").write_text(header + "\n".join(sections))
    print("wrote BENCHMARKS.md", file=sys.stderr)


if __name__ == "__main__":
    main()
