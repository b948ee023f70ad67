"""The lean recorder of the bench (bench/lean_recording.py) is a floor only if it writes
what the real trace carries: the same tensors, values and gradients, in the same order."""

from __future__ import annotations

from typing import Any

import numpy as np
import orjson
import pytest
from bench.engine_bench import FAMILIES, LIMITS
from bench.lean_recording import columnar_job, lean_job

from gradtrace.trace.session import trace_program


def _numbers(data: dict[str, Any] | None) -> list[float] | None:
    if data is None:
        return None
    return np.asarray(data["values"], dtype=np.float32).reshape(-1).tolist()


@pytest.mark.parametrize("family", list(FAMILIES))
def test_lean_writes_the_real_trace(family: str) -> None:
    source = FAMILIES[family](40)
    real = orjson.loads(trace_program(source, device="cpu", seed=0, limits=LIMITS))
    lean = orjson.loads(lean_job(source, LIMITS))
    assert real["ok"]

    def tensors(trace: dict[str, Any]) -> list[Any]:
        return [
            (n["shape"], _numbers(n["value"]), _numbers(n["grad"]))
            for n in trace["nodes"]
            if n["kind"] == "tensor"
        ]

    def ops(trace: dict[str, Any]) -> list[str]:
        return sorted(n["op"] for n in trace["nodes"] if n["kind"] == "function")

    def gradients(trace: dict[str, Any]) -> list[Any]:
        return [
            (e["node_kind"], [_numbers(g) for g in e.get("grad_outputs", [e.get("grad")])])
            for e in trace["timeline"]
            if e["phase"] == "backward"
        ]

    assert tensors(lean) == tensors(real)
    assert ops(lean) == ops(real)
    assert len(lean["edges"]) <= len(real["edges"])
    assert gradients(lean) == gradients(real)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_columns_hold_the_lean_trace(family: str) -> None:
    source = FAMILIES[family](40)
    lean = orjson.loads(lean_job(source, LIMITS))
    columns = orjson.loads(columnar_job(source, LIMITS))
    data = columns["data"]

    def row(ref: int) -> list[float] | None:
        if ref < 0:
            return None
        block = data["blocks"][data["block"][ref]]
        return np.asarray(block["values"][data["row"][ref]], dtype=np.float32).tolist()

    lean_tensors = [n for n in lean["nodes"] if n["kind"] == "tensor"]
    assert [row(ref) for ref in columns["tensors"]["value"]] == [
        _numbers(n["value"]) for n in lean_tensors
    ]
    assert len(columns["functions"]["op"]) == len(lean["nodes"]) - len(lean_tensors)
    ran = [e for e in lean["timeline"] if e["phase"] == "backward" and e["node_kind"] == "function"]
    assert len(columns["backward"]["function"]) == len(ran)
    assert [row(ref) for ref in columns["backward"]["grad_outputs"]] == [
        _numbers(g) for e in ran for g in e["grad_outputs"]
    ]
