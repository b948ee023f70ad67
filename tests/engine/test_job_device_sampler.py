"""A DataLoader with shuffle=True on a GPU job: torch's RandomSampler draws each epoch's
order on a CPU generator, which torch refuses under a CUDA default device. gradtrace's
DataLoader gives the sampler a generator on the job's device, seeded from the job's
default generator each epoch as torch's is: on the CPU, the orders are torch's own.
random_split, refused there for the same reason, draws on its generator's device."""

from __future__ import annotations

import pytest
import torch
import torch.utils.data as tud

import gradtrace
from gradtrace.language.dataloaders import _JobDeviceRandomSampler

DATA = tud.TensorDataset(torch.arange(10))


@pytest.mark.parametrize(
    "options",
    [{}, {"replacement": True}, {"num_samples": 25}, {"replacement": True, "num_samples": 70}],
)
def test_on_the_cpu_its_orders_are_torchs(options: dict[str, object]) -> None:
    torch.manual_seed(3)
    torchs = [list(tud.RandomSampler(DATA, **options)) for epoch in range(3)]  # type: ignore[arg-type]
    torch.manual_seed(3)
    ours = [list(_JobDeviceRandomSampler(DATA, **options)) for epoch in range(3)]  # type: ignore[arg-type]
    assert ours == torchs
    assert torchs[0] != torchs[1]


SHUFFLED = """
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.arange(12)), batch_size=5, shuffle=True)
for epoch in range(2):
    seen = []
    for (batch,) in loader:
        seen += batch.tolist()
    print(sorted(seen) == list(range(12)), seen[:4], batch.device.type)
print(torch.rand(1).item())
"""


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_a_shuffled_loader_runs_on_a_gpu_job_seeded() -> None:
    first = gradtrace.run(SHUFFLED, device="cuda")
    assert first.ok, first.error
    lines = first.stdout.splitlines()
    assert [line.split()[0] for line in lines[:2]] == ["True", "True"]
    assert all(line.endswith("cuda") for line in lines[:2])
    assert lines[0] != lines[1]  # another order each epoch
    again = gradtrace.run(SHUFFLED, device="cuda")
    assert again.stdout == first.stdout


SPLITS = """
import torch
from torch.utils.data import TensorDataset, random_split

torch.manual_seed(0)
data = TensorDataset(torch.arange(10))
a, b = random_split(data, [7, 3])
c, d = random_split(data, [0.5, 0.5], generator=torch.Generator().manual_seed(1))
print([[int(row[0]) for row in part] for part in (a, b, c, d)], a[0][0].device.type)
"""


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_random_split_on_a_gpu_job_splits_as_on_the_cpu() -> None:
    on_cpu = gradtrace.run(SPLITS, device="cpu")
    on_gpu = gradtrace.run(SPLITS, device="cuda")
    assert on_cpu.ok, on_cpu.error
    assert on_gpu.ok, on_gpu.error
    assert on_gpu.stdout.replace(" cuda", " cpu") == on_cpu.stdout
    assert on_gpu.stdout.endswith("cuda\n")
