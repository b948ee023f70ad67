"""gradtrace.capture in a notebook-like process, against raw forward + backward and
against TorchLens's forward-only trace of the same models.

A notebook kernel holds many objects; `capture` must cost what its graph costs, not
what the heap holds, so the process keeps 1,000,000 other Python objects alive. Each
model's forward + backward, and forward + `capture(output, params=model)` (which
records the graph and runs its backward), are timed turn about; TorchLens
(`torchlens.trace`, forward only, every activation saved) is timed after them, as it
wraps torch's functions process-wide on its first call.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import torch
from torch import nn

import gradtrace

REPEATS = 7
OTHER_OBJECTS = 1_000_000
FIRST: dict[str, float] = {}


def _mlp() -> tuple[nn.Module, torch.Tensor]:
    model = nn.Sequential(
        nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10)
    )
    return model, torch.randn(16, 32)


def _cnn() -> tuple[nn.Module, torch.Tensor]:
    model = nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(16 * 7 * 7, 10),
    )  # fmt: skip
    return model, torch.randn(8, 1, 28, 28)


def _transformer() -> tuple[nn.Module, torch.Tensor]:
    layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, batch_first=True)
    model = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
    return model, torch.randn(2, 10, 32)


MODELS: dict[str, Callable[[], tuple[nn.Module, torch.Tensor]]] = {
    "MLP (3 Linear)": _mlp,
    "small CNN with batch norm": _cnn,
    "2-layer transformer encoder": _transformer,
}


def _median_ms(fn: Callable[[], Any]) -> float:
    fn()
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _turn_about(first: Callable[[], Any], second: Callable[[], Any]) -> tuple[float, float]:
    first()
    second()
    a: list[float] = []
    b: list[float] = []
    for _ in range(REPEATS):
        for fn, bucket in ((first, a), (second, b)):
            start = time.perf_counter()
            fn()
            bucket.append((time.perf_counter() - start) * 1000)
    return statistics.median(a), statistics.median(b)


def run_capture_bench() -> list[dict[str, Any]]:
    torch.manual_seed(0)
    torch.set_num_threads(1)
    # A notebook's other objects: small containers, as a kernel's history and data hold.
    notebook = [{"i": i} for i in range(OTHER_OBJECTS)]
    rows: list[dict[str, Any]] = []
    built = {name: make() for name, make in MODELS.items()}
    # The first capture of a process looks once through the heap for tensors that called
    # retain_grad() before gradtrace watched it; later ones cost only their graph.
    model, x = built["MLP (3 Linear)"]
    start = time.perf_counter()
    gradtrace.capture(model(x).sum(), params=model)
    FIRST["ms"] = (time.perf_counter() - start) * 1000
    for name, (model, x) in built.items():

        def raw(model: nn.Module = model, x: torch.Tensor = x) -> None:
            model.zero_grad()
            model(x).sum().backward()

        def captured(model: nn.Module = model, x: torch.Tensor = x) -> None:
            gradtrace.capture(model(x).sum(), params=model)

        raw_ms, capture_ms = _turn_about(raw, captured)
        trace = gradtrace.capture(model(x).sum(), params=model)
        rows.append(
            {"model": name, "nodes": len(trace.nodes), "raw_ms": raw_ms, "capture_ms": capture_ms}
        )
    try:
        import torchlens
    except ImportError:
        torchlens = None
    for row, (model, x) in zip(rows, built.values(), strict=True):
        if torchlens is None:
            row["torchlens_ms"] = None
            row["torchlens_problem"] = "torchlens is not installed (make bench-setup)"
            continue
        try:
            row["torchlens_ms"] = _median_ms(lambda m=model, x=x: torchlens.trace(m, x))
        except Exception as error:  # a model TorchLens cannot trace: say so in the table
            row["torchlens_ms"] = None
            row["torchlens_problem"] = f"{type(error).__name__}: {str(error)[:120]}"
    del notebook
    for row in rows:
        print(
            f"  {row['model']}: raw {row['raw_ms']:.1f} ms, capture {row['capture_ms']:.1f} ms, "
            f"torchlens {row['torchlens_ms'] if row['torchlens_ms'] is None else round(row['torchlens_ms'], 1)} ms",
            file=sys.stderr,
            flush=True,
        )
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    from bench.tables import table

    lines = [
        "## Python API: capture against TorchLens",
        "",
        f"In one process holding {OTHER_OBJECTS:,} other Python objects (a notebook kernel), "
        "one torch thread, medians of "
        f"{REPEATS} runs: the model's forward + backward; forward + `gradtrace.capture` "
        "(the graph, every value and gradient, its backward included), timed turn about with "
        "it; and TorchLens's forward-only trace (`torchlens.trace`, every activation saved), "
        "timed after them in the same process. Target: capture faster than TorchLens.",
        "",
    ]
    body = []
    met = True
    for r in rows:
        tl = r["torchlens_ms"]
        if tl is None:
            verdict = r.get("torchlens_problem", "not run")
            met = False
        else:
            verdict = f"{r['capture_ms'] / tl:.2f}x"
            met = met and r["capture_ms"] < tl
        body.append(
            [
                r["model"],
                f"{r['nodes']:,}",
                f"{r['raw_ms']:.1f}",
                f"{r['capture_ms']:.1f}",
                f"{r['capture_ms'] / r['raw_ms']:.1f}x",
                "—" if tl is None else f"{tl:.1f}",
                verdict,
            ]
        )
    lines.append(
        table(
            [
                "model",
                "graph nodes",
                "forward + backward (ms)",
                "forward + capture (ms)",
                "capture / raw",
                "TorchLens forward (ms)",
                "capture / TorchLens",
            ],
            body,
        )
    )
    if "ms" in FIRST:
        lines += [
            "",
            f"The first capture of a process also looks once through the heap for tensors that "
            f"called `retain_grad()` before gradtrace watched it: {FIRST['ms']:.0f} ms here, once.",
        ]
    lines += [
        "",
        f"Target: capture faster than TorchLens on every model: **{'met' if met else 'not met'}**.",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(run_capture_bench()))
