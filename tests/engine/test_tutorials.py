"""Issue 16's corpus: real tutorial programs through gradtrace and CPython + torch.

Each file in tests/programs/tutorials is code from a public tutorial, docs page or test
suite, kept as its author wrote it (data made small and synthetic; its header says what
changed). One test per program compares what the differential tests compare: the outcome,
the printed output, the `.grad` of every global tensor and of every parameter of every
global nn.Module. A program gradtrace cannot run yet is an expected failure naming its
blockers, strict: the day it passes, the marker must go.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
from engine_support import (
    TUTORIALS,
    error_text,
    grad_problems,
    mask_addresses,
    reference_entry,
    run_gradtrace,
    tutorial_files,
)

# What stops each program today, every blocker it hits (README.md ranks them).
BLOCKED: dict[str, list[str]] = {
    "t88_examples_gat": [
        "`Tensor.to_sparse` is not available",
        "`torch.sparse_coo_tensor` is not available",
    ],
}


def params() -> list[Any]:
    out = []
    for path in tutorial_files():
        blockers = BLOCKED.get(path.stem)
        marks = [pytest.mark.xfail(strict=True, reason="; ".join(blockers))] if blockers else []
        out.append(pytest.param(path, id=path.stem, marks=marks))
    return out


_NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")


def same_printout(ours: str, reference: str) -> bool:
    """The same text, floats equal to 12 significant digits. (micrograd keeps a Value's
    children in a set, ordered by address: gradients are summed in an order that changes
    from one CPython run to the next, and so do the last bits of what it prints.)"""
    if ours == reference:
        return True
    if _NUMBER.sub("#", ours) != _NUMBER.sub("#", reference):
        return False
    pairs = zip(_NUMBER.findall(ours), _NUMBER.findall(reference), strict=True)
    return all(math.isclose(float(a), float(b), rel_tol=1e-12) for a, b in pairs)


def mismatches(path: Path, ref: dict[str, Any]) -> list[str]:
    """Every way gradtrace's run of `path` differs from the reference's, as text."""
    trace = run_gradtrace(path)
    if ref["error"] is None and not trace.ok:
        return [f"gradtrace failed: {error_text(trace)}"]
    if ref["error"] is not None and (
        trace.error is None or trace.error.type != ref["error"]["type"]
    ):
        return [f"expected {ref['error']['type']}, gradtrace: {error_text(trace)}"]
    problems = []
    if not same_printout(mask_addresses(trace.stdout), mask_addresses(ref["stdout"])):
        problems.append(
            f"stdout differs:\n{trace.stdout[-800:]}\n--- vs ---\n{ref['stdout'][-800:]}"
        )
    return problems + grad_problems(trace, {**ref["grads"], **ref["module_grads"]})


def test_corpus_is_big_enough() -> None:
    assert len(tutorial_files()) >= 60


def test_blockers_name_real_programs() -> None:
    stems = {p.stem for p in tutorial_files()}
    assert set(BLOCKED) <= stems, sorted(set(BLOCKED) - stems)


def test_every_program_names_its_source_and_is_listed() -> None:
    readme = (TUTORIALS / "README.md").read_text(encoding="utf-8")
    for path in tutorial_files():
        assert path.read_text(encoding="utf-8").startswith("# Source: "), path.name
        assert f"`{path.stem}`" in readme, f"{path.name} is not in the README's table"


@pytest.mark.parametrize("path", params())
def test_tutorial_runs_and_matches(path: Path, tutorial_reference: dict[str, Any]) -> None:
    ref = reference_entry(tutorial_reference, path)["plain"]
    problems = mismatches(path, ref)
    assert not problems, "\n".join(problems)
