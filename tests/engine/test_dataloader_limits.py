"""gradtrace's DataLoader bounds what torch allocates for it, however it is consumed.

Its batches are checked for every consumer (a `for`, enumerate, zip, list, next(iter())),
through dicts and nested containers; the batch torch's collate would stack is sized before
it is stacked; batch_size and a shuffled dataset's length are bounded before torch's
samplers allocate for them, and so is random_split's. Real runs through gradtrace.run; the
programs that idioms still run are compared with CPython and torch.
"""

from __future__ import annotations

import contextlib
import io
import os
import resource
import sys

import pytest
import torch

import gradtrace
from gradtrace.language.dataloaders import check_batch
from gradtrace.language.errors import LimitError

HEADER = (
    "import torch\nfrom torch.utils.data import DataLoader, TensorDataset, Subset, random_split\n"
)
REPEATED = "ds = Subset(TensorDataset(torch.ones(10, 90)), [0] * 100000)\n"
HUGE = (
    "class DS:\n"
    "    def __len__(self):\n"
    "        return 30000000\n"
    "    def __getitem__(self, i):\n"
    "        return torch.tensor(float(i))\n"
)
CHANGING = (
    "calls = [0]\n"
    "class DS:\n"
    "    def __len__(self):\n"
    "        calls[0] += 1\n"
    "        return 10 if calls[0] == 1 else 30000000\n"
    "    def __getitem__(self, i):\n"
    "        return torch.tensor(float(i))\n"
)
COLLATED = "would make a tensor of 9,000,000 elements, over the limit (4,000,000 per tensor)"

REFUSED = {
    "enumerate": (
        REPEATED + "for i, (b,) in enumerate(DataLoader(ds, batch_size=100000)):\n"
        "    print(i, b.numel())\n",
        COLLATED,
    ),
    "next_iter": (REPEATED + "(b,) = next(iter(DataLoader(ds, batch_size=100000)))\n", COLLATED),
    "list": (REPEATED + "batches = list(DataLoader(ds, batch_size=100000))\n", COLLATED),
    "zip": (
        REPEATED + "for (b,), k in zip(DataLoader(ds, batch_size=100000), [0]):\n"
        "    print(b.numel())\n",
        COLLATED,
    ),
    "dict_batch": (
        "row = torch.ones(90)\n"
        "class DS:\n"
        "    def __len__(self):\n"
        "        return 100000\n"
        "    def __getitem__(self, i):\n"
        "        return {'x': [row]}\n"
        "for b in DataLoader(DS(), batch_size=100000):\n"
        "    print(b['x'][0].numel())\n",
        COLLATED,
    ),
    "big_rows": (
        "ds = Subset(TensorDataset(torch.ones(1, 4000000)), [0] * 100)\n"
        "for i, (b,) in enumerate(DataLoader(ds, batch_size=100)):\n"
        "    print(b.numel())\n",
        "would make a tensor of 400,000,000 elements",
    ),
    "samples_total": (
        "ds = Subset(TensorDataset(torch.ones(1, 4000000)), [0] * 5)\n"
        "def collate(samples):\n"
        "    return samples\n"
        "for batch in DataLoader(ds, batch_size=5, collate_fn=collate):\n"
        "    print(len(batch))\n",
        "20,000,000 tensor elements in all, over the limit (16,000,000",
    ),
    "batch_size": (
        "dl = DataLoader(TensorDataset(torch.zeros(3)), batch_size=40000000, drop_last=True)\n"
        "for b in dl:\n"
        "    print(b)\n",
        "DataLoader(batch_size=40,000,000) is over the limit (1,000,000 items of one sequence)",
    ),
    "shuffle_len": (
        HUGE + "for b in DataLoader(DS(), batch_size=2, shuffle=True):\n    break\n",
        "DataLoader(shuffle=True): a dataset of 30,000,000 items is over the limit (1,000,000",
    ),
    "shuffle_len_changes": (
        CHANGING + "for b in DataLoader(DS(), batch_size=2, shuffle=True):\n    break\n",
        "DataLoader(shuffle=True): a dataset of 30,000,000 items",
    ),
    "random_split_len": (
        HUGE + "a, b = random_split(DS(), [0.5, 0.5])\n",
        "random_split(): a dataset of 30,000,000 items is over the limit (1,000,000",
    ),
    "random_split_len_changes": (
        CHANGING + "a, b = random_split(DS(), [0.5, 0.5])\n",
        "random_split(): a dataset of 30,000,000 items",
    ),
    "random_split_lengths": (
        "a, b = random_split(range(10), [20000000, 10000000])\n",
        "random_split(): lengths of 30,000,000 items in all are over the limit",
    ),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_with_a_limit_error(name: str) -> None:
    body, message = REFUSED[name]
    trace = gradtrace.run(HEADER + body)
    assert not trace.ok
    assert trace.error is not None
    assert trace.error.type == "LimitError", trace.error
    assert message in trace.error.message


def test_a_dataset_length_that_is_no_int_is_a_type_error() -> None:
    trace = gradtrace.run(
        HEADER + "class DS:\n"
        "    def __len__(self):\n"
        "        return 3.5\n"
        "    def __getitem__(self, i):\n"
        "        return i\n"
        "print(DataLoader(DS(), shuffle=True))\n"
    )
    assert trace.error is not None
    assert trace.error.type == "TypeError"
    assert "len(dataset) must be an int, not float" in trace.error.message


def _peak_growth_mb(source: str) -> tuple[int, str]:
    """Run `source` in a forked child: how many MB its peak resident size grew, and the
    error type the run ended with."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            os.close(read)
            gradtrace.run("import torch\nprint(torch.ones(3).sum())\n")  # warm up
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            trace = gradtrace.run(source)
            after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            kind = trace.error.type if trace.error is not None else "ok"
            os.write(write, f"{(after - before) // 1024} {kind}".encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read) as f:
        answer = f.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, answer
    grown, kind = answer.split()
    return int(grown), kind


@pytest.mark.skipif(sys.platform != "linux", reason="reads ru_maxrss in a forked child")
@pytest.mark.parametrize("name", ["big_rows", "batch_size", "shuffle_len", "random_split_len"])
def test_refused_before_the_big_allocation(name: str) -> None:
    # Each of these allocated over 1 GB before the fix (1.6 GB of stacked rows, 1.25 GB of
    # BatchSampler lists, 1.65 GB of randperm(30M).tolist()).
    grown, kind = _peak_growth_mb(HEADER + REFUSED[name][0])
    assert kind == "LimitError"
    assert grown < 100, f"the peak grew {grown} MB"


IDIOMS = """
import torch
from torch.utils.data import DataLoader, TensorDataset, random_split, Subset
torch.manual_seed(0)
ds = TensorDataset(torch.arange(20.0).reshape(10, 2), torch.arange(10))
loader = DataLoader(ds, batch_size=3, shuffle=True, drop_last=True)
print(len(loader))
for epoch in range(2):
    for i, (x, y) in enumerate(loader):
        print(epoch, i, x.shape, y.tolist())
x, y = next(iter(loader))
print(x.shape, len(iter(loader)))
print(len(list(DataLoader(ds, batch_size=4))))
for (a, b), c in zip(DataLoader(ds, batch_size=5), range(2)):
    print(a.sum().item(), c)
class DS:
    def __len__(self):
        return 6
    def __getitem__(self, i):
        return {"x": torch.full((2,), float(i)), "pair": (i, [i * 2.0]), "name": "s" + str(i)}
for b in DataLoader(DS(), batch_size=4, shuffle=True):
    print(b["x"].tolist(), b["pair"][0].tolist(), b["pair"][1][0].tolist(), b["name"])
a, b = random_split(ds, [7, 3])
print(len(a), len(b), [int(a[i][1]) for i in range(len(a))])
g = torch.Generator().manual_seed(1)
parts = random_split(range(10), [0.5, 0.3, 0.2], generator=g)
print([list(p) for p in parts])
train = DataLoader(parts[0], batch_size=2, shuffle=True)
print([batch.tolist() for batch in train])
def collate(samples):
    return torch.stack([s[0] for s in samples])
print(next(iter(DataLoader(ds, batch_size=2, collate_fn=collate))))
print([b for b in DataLoader([1, 2, 3], batch_size=None)])
print([b.tolist() for b in DataLoader([1, 2, 3], batch_size=2)])
"""


def test_the_usual_idioms_print_what_torch_prints() -> None:
    trace = gradtrace.run(IDIOMS)
    assert trace.ok, trace.error
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(IDIOMS, "<idioms>", "exec"), {"__name__": "__idioms__"})
    assert trace.stdout == out.getvalue()


def test_a_batch_is_checked_through_dicts_and_nested_containers() -> None:
    # Outside a job the default limits apply (4M per tensor, 16M in all).
    check_batch({"x": [(torch.zeros(3), torch.zeros(2))], "y": "s"})
    with pytest.raises(LimitError, match="5,000,000 elements is over the limit"):
        check_batch({"x": [(torch.zeros(3), torch.zeros(5_000_000))]})
    with pytest.raises(LimitError, match="a batch holds 20,000,000 tensor elements in all"):
        row = torch.zeros(4_000_000)
        check_batch([{"a": row, "b": (row, row)}, [row, row]])
