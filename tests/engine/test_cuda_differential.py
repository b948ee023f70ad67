"""The differential programs on the GPU: gradtrace's job on `cuda` against CPython + torch
running the same file inside `with torch.device("cuda")`, as the job does. Printed output
(addresses masked), the outcome and every named tensor's and module parameter's `.grad`
must agree. Skipped where torch sees no CUDA device."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch
from engine_support import (
    error_text,
    grad_problems,
    mask_addresses,
    program_params,
    reference_entry,
    run_gradtrace,
)

pytestmark = [
    pytest.mark.cuda,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device"),
]


# Programs that torch cannot run under a CUDA default device and gradtrace's job can.
RUNS_WHERE_TORCH_FAILS = {
    # RandomSampler draws on a CPU generator: gradtrace's DataLoader gives it one on the GPU
    "p29_dataloader_shuffle.py": "Expected a 'cuda' device type for generator",
    "p77_dataset_classes.py": "Expected a 'cuda' device type for generator",
}


@pytest.mark.parametrize("path", program_params())
def test_program_on_the_gpu(path: Path, cuda_reference: dict[str, Any]) -> None:
    ref = reference_entry(cuda_reference, path)["plain"]
    trace = run_gradtrace(path, device="cuda")
    assert trace.device.startswith("cuda")
    if path.name in RUNS_WHERE_TORCH_FAILS:
        assert RUNS_WHERE_TORCH_FAILS[path.name] in ref["error"]["message"], ref["error"]
        assert trace.ok, error_text(trace)
        return
    if ref["error"] is None:
        assert trace.ok, error_text(trace)
    else:
        assert trace.error is not None, f"expected {ref['error']['type']}"
        assert trace.error.type == ref["error"]["type"], error_text(trace)
    assert mask_addresses(trace.stdout) == mask_addresses(ref["stdout"]), error_text(trace)
    problems = grad_problems(trace, {**ref["grads"], **ref["module_grads"]})
    assert not problems, "\n".join(problems)
