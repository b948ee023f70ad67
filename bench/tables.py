"""Markdown tables for BENCHMARKS.md: labels in the first column, numbers right-aligned."""

from __future__ import annotations

from collections.abc import Iterable


def table(header: list[str], rows: Iterable[Iterable[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "| --- |" + " ---: |" * (len(header) - 1)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)
