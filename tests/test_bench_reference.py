"""The service bench's reference service must do the same program as the one gradtrace
serves in the bench, or the rows set side by side would not compare."""

from __future__ import annotations

import orjson
import pytest
import torch
from bench.reference_server import trace_program
from bench.server_bench import PROGRAM

import gradtrace


@pytest.mark.parametrize("constant", ["0.3", "0.12345", "2.5"])
def test_reference_computes_the_bench_program(constant: str) -> None:
    source = PROGRAM.format(c=constant)
    trace = gradtrace.run(source).model_dump(mode="json")
    reference = orjson.loads(trace_program(source))
    assert trace["ok"] and reference["ok"]
    assert reference["output"] == trace["stdout"]
    by_name = {node["name"]: node for node in reference["nodes"]}
    for name, node_id in trace["variables"].items():
        node = next(n for n in trace["nodes"] if n["id"] == node_id)
        theirs = by_name[name]
        torch.testing.assert_close(
            torch.tensor(theirs["value"]), torch.tensor(node["value"]["values"])
        )
        # The reference keeps every intermediate's gradient; torch (and the trace's
        # final `.grad`) only the leaves'.
        if node["is_leaf"] and node["requires_grad"]:
            torch.testing.assert_close(
                torch.tensor(theirs["grad"]), torch.tensor(node["grad"]["values"])
            )
