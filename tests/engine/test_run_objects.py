"""`gradtrace.run` builds its Trace as objects from the recorder (trace/objects.py), never
writing JSON and validating it back. Each program of the corpus must give, field by
field, what validating the service's JSON of the same program gives.

One difference is by design: the JSON writes a float32 array's numbers in their shortest
decimal form (0.1), the objects hold them as `tensor.tolist()` does (0.10000000149011612).
So `values` are compared in the tensor's own precision: the JSON's numbers are rounded to
float32 (float16 for half tensors), which must give exactly the objects' numbers, and the
objects' numbers must be float32 numbers already.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from engine_support import program_params, tutorial_files

import gradtrace
from gradtrace.sandbox.confine import zero_fresh_memory
from gradtrace.trace.models import Trace

# torch's own unwritten buffers (an LSTM's saved workspace) reach the trace: zeroed, as
# in a service worker, they are the same in both runs.
zero_fresh_memory()


# micrograd keeps a Value's children in a set ordered by address, so the last bits of its
# sums vary from run to run: printed floats are compared to 12 digits (as test_tutorials).
_FLOAT = re.compile(r"\d+\.\d{12,}")


def _digits(text: str) -> str:
    return _FLOAT.sub(lambda m: f"{float(m.group()):.12g}", text)


# The numpy type a TensorData's values are exact in, by the tensor's dtype (a complex
# tensor's values are its real and imaginary parts; bfloat16 travels as float32).
_PRECISION: dict[str, Any] = {
    "float32": np.float32,
    "bfloat16": np.float32,
    "complex64": np.float32,
    "float16": np.float16,
    "complex32": np.float16,
}
_TENSOR_DATA = {"shape", "dtype", "numel", "values", "preview", "stats"}


def _rounded(values: Any, precision: Any) -> Any:
    if isinstance(values, list):
        return [_rounded(v, precision) for v in values]
    if isinstance(values, float):
        return float(precision(values))
    return values  # an int, a bool, or "nan"/"inf"/"-inf"


def _in_tensor_precision(value: Any) -> Any:
    """`value` with each TensorData's values rounded to its tensor's precision."""
    if isinstance(value, list):
        return [_in_tensor_precision(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: _in_tensor_precision(v) for k, v in value.items()}
    if out.keys() == _TENSOR_DATA and out["dtype"] in _PRECISION:
        out["values"] = _rounded(out["values"], _PRECISION[out["dtype"]])
    return out


def _comparable(trace: Trace, *, exact: bool = False) -> dict[str, Any]:
    data = trace.model_dump()
    if not exact:
        data = _in_tensor_precision(data)
    data["elapsed_ms"] = 0.0
    data["stdout"] = _digits(data["stdout"])
    for event in data["timeline"]:
        if event.get("phase") == "print":
            event["text"] = _digits(event["text"])
    return data


def _key_orders(value: Any) -> Any:
    """`value`'s dicts as lists of their keys, in order, with what they hold."""
    if isinstance(value, list):
        return [_key_orders(v) for v in value]
    if isinstance(value, dict):
        return [(k, _key_orders(v)) for k, v in value.items()]
    return None


PROGRAMS = program_params() + [pytest.param(p, id=f"tutorials/{p.stem}") for p in tutorial_files()]


@pytest.mark.parametrize("path", PROGRAMS)
def test_run_gives_the_validated_json_trace(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    gradtrace.run_json(source)  # torch warns some things once a process: not in either run
    first = _comparable(Trace.model_validate_json(gradtrace.run_json(source)))
    validated = _comparable(Trace.model_validate_json(gradtrace.run_json(source)))
    built = gradtrace.run(source)
    assert type(built) is Trace
    # A field two runs of the service's path disagree on is the program's own chance
    # (micrograd prints a set ordered by address): only the others are compared.
    stable = [key for key in validated if first[key] == validated[key]]
    assert len(stable) >= len(validated) - 2, sorted(set(validated) - set(stable))
    ours = _comparable(built, exact=True)
    assert _comparable(built) == ours  # its numbers are the tensors' own, unrounded
    assert {k: ours[k] for k in stable} == {k: validated[k] for k in stable}
    # Its fields in the same order everywhere (objects.py trusts the writer's order).
    assert _key_orders({k: ours[k] for k in stable}) == _key_orders(
        {k: validated[k] for k in stable}
    )
    # And it writes the same JSON as the service's.
    again = _comparable(Trace.model_validate_json(built.model_dump_json(by_alias=True)))
    assert {k: again[k] for k in stable} == {k: validated[k] for k in stable}


def test_run_of_a_failing_program_keeps_its_error() -> None:
    source = "import torch\nx = torch.ones(2)\ny = x[5]\n"
    built = gradtrace.run(source)
    validated = Trace.model_validate_json(gradtrace.run_json(source))
    assert not built.ok and built.error is not None
    assert built.error == validated.error and built.error.line == 3
