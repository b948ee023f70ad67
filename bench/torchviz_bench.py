"""The same graphs through torchviz + Graphviz `dot`, beside the browser's figures.

torchviz draws the grad_fn graph of a tensor as a static picture with no values. For
the browser benchmark's programs (about 100, 1,000 and 2,000 nodes) this measures the
time from the computed tensor to an SVG: `make_dot` plus `dot -Tsvg`. Medians of 3.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import time
from typing import Any

import torch

from bench.tables import table


def _diamond_chain(nodes: int) -> torch.Tensor:
    """The browser benchmark's program (frontend/bench/run.mjs), run as plain torch."""
    x = torch.tensor(0.5, requires_grad=True)
    y = x
    for _ in range(max(1, round((nodes - 2) / 8))):
        a = y * 1.001
        b = y.sin()
        y = a + b * 0.001
    return y


def run_torchviz_bench() -> list[dict[str, Any]] | None:
    try:
        from torchviz import make_dot
    except ImportError:
        return None
    dot = shutil.which("dot")
    if dot is None:
        return None
    rows = []
    for target in (100, 1_000, 2_000):
        y = _diamond_chain(target)
        times = []
        svg = b""
        for _ in range(3):
            start = time.perf_counter()
            source = make_dot(y).source
            svg = subprocess.run(
                [dot, "-Tsvg"], input=source.encode(), capture_output=True, check=True
            ).stdout
            times.append((time.perf_counter() - start) * 1000)
        rows.append(
            {
                "target": target,
                "graphviz_nodes": source.count("[label="),
                "ms": statistics.median(times),
                "svg_bytes": len(svg),
            }
        )
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    return table(
        ["program", "torchviz nodes", "make_dot + dot -Tsvg (ms)", "SVG size"],
        (
            [
                f"~{r['target']:,} nodes",
                f"{r['graphviz_nodes']:,}",
                f"{r['ms']:.0f}",
                f"{r['svg_bytes'] / 1e3:.0f} KB",
            ]
            for r in rows
        ),
    )


if __name__ == "__main__":
    result = run_torchviz_bench()
    print(markdown(result) if result else "torchviz or graphviz is not installed")
