"""A GPU-to-host copy asked non_blocking lands in pinned host memory that torch's caching
host allocator reuses from job to job, unwritten: read before the copy ended, it would
show an earlier job's values. The job waits for such copies before the program (or the
trace) reads them. Job A leaves 7s in a pinned block; job B queues long GPU work, then
copies zeros non_blocking and reads them at once. Skipped where torch sees no CUDA device.
"""

from __future__ import annotations

import pytest
import torch

import gradtrace

pytestmark = [
    pytest.mark.cuda,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device"),
]

LEAVES_SEVENS = """
import torch
x = torch.full((1000000,), 7.0)
y = x.to("cpu", non_blocking=True)
print(float(y[0]))
"""

READS_AT_ONCE = """
import torch
big = torch.ones(2000, 2000)
for i in range(30):
    big = big @ big / 2000
x = torch.zeros(1000000)
y = x.to("cpu", non_blocking=True)
print(float(y.abs().max()))
m = torch.nn.Linear(1000, 1000)
m.to("cpu", non_blocking=True)
print(float(m.weight.abs().max()) < 1)
"""


def test_a_non_blocking_copy_to_the_host_shows_no_earlier_job() -> None:
    for _ in range(3):
        before = gradtrace.run(LEAVES_SEVENS, device="cuda")
        assert before.ok and before.stdout == "7.0\n", before.error
        after = gradtrace.run(READS_AT_ONCE, device="cuda")
        assert after.ok, after.error
        assert after.stdout == "0.0\nTrue\n"
