"""One job must leave nothing the next job can see: not its values, not its torch state.

Through the real service (the FastAPI app, its pool, ONE sandboxed worker process with
256 MiB, so every job runs in the same process one after another; the trace cache is
off, so every probe really runs), each test runs a probe program, then a hostile or state-changing job,
then the probe again, and requires:

- the probe's trace after the job is the probe's trace before it (timing fields and
  object addresses aside, as in test_isolation.py), and
- no probe trace ever contains the marker value 31337 (the marker jobs fill tensors,
  strings, lists and dicts with it; any probe that shows it is reading their memory).

What the probes look at:

- memory that a program can read without writing it first, one admitted path per probe
  (so that refusing one path does not hide the others): `torch.empty` (float32; int64,
  where heap pointers show; uint8, where freed strings' bytes show), all at 4,096
  elements or fewer (the size malloc recycles from freed blocks),
  `torch.empty_like`, `Tensor.new_empty`, the legacy constructor `torch.Tensor(n)`;
  and torch's own unwritten buffers that reach the trace (an LSTM's saved workspace);
- headroom: a job using a large but admitted amount of memory must still run (a job
  that leaves garbage in reference cycles keeps it alive into the next job: the cyclic
  GC is off during runs);
- global torch state: default dtype, grad mode, inference mode, print options
  (precision, sci mode, linewidth, threshold/summarisation), the RNG right after the
  job's seeding (rand, randn, randint, randperm, a Linear's initial weights), a
  backward pass, a custom autograd.Function, a Module call (global module hooks), a
  DataLoader pass, `torch.finfo`, `no_grad` entry and exit. (Backends flags, the
  default device and the thread count are not readable by a program: a change to them
  shows up through the values and dtypes above.)

The jobs: every tests/hostile/state_*.py, mem_*.py and super_*.py program, the marker
jobs, and a few inline state changers (print options, default dtype and grad mode
through `map`, which skips the call-site checks; an exception inside `no_grad`; the
C++ warn-once flags; a job that leaves 176 MB in reference cycles).

`test_gradcheck_*` do the same around /api/gradcheck jobs, whose check runs replay the
program with a leaf element moved by eps: a program that behaves differently when moved
(raises, loops, skips its backward) must get a 200 answer (`ok: false`), not a 500 and a
retired worker, and must leave nothing behind either.

`test_a_large_tensor_does_not_hang_the_worker`: a 65,536-element tensor in a confined
worker (numpy's OpenBLAS cannot start threads there).

`test_probe_twice_is_the_same` runs each probe twice in a row with nothing between:
a probe that changes its own next answer (uninitialised memory, warn-once warnings
such as `x.T` on a 3-D tensor, TORCH_WARN_ONCE being per process) is itself a leak
from one user to the next.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import AppClient, comparable, make_settings, open_app

pytestmark = pytest.mark.anyio

HOSTILE = Path(__file__).resolve().parents[1] / "hostile"
MARKER = "31337"

STATE_PROBE = """\
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
print(torch.get_default_dtype(), torch.is_grad_enabled(), torch.is_inference_mode_enabled())
import numpy as np
print(np.arange(2000) / 3, np.array([1 / 3, 1e-9, np.nan]))
print(torch.tensor([1 / 3, 1e-8, 12345.678, 1e10]))
print(torch.tensor([2.0, 3.0]))
print(torch.ones(3, 14) / 3)
print(torch.arange(2000.0))
print(torch.rand(3), torch.randn(2), torch.randint(0, 100, (3,)), torch.randperm(5))
lin = nn.Linear(2, 2)
print(lin.weight, lin.bias, lin)
print(lin(torch.ones(2)))
x = torch.ones(2, 3, requires_grad=True)
y = (x * x * 3).sum()
y.backward()
print(x.grad, y.grad_fn.name())
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t * t
    @staticmethod
    def backward(ctx, g):
        t, = ctx.saved_tensors
        return 2 * t * g
w = torch.ones(3, requires_grad=True)
Sq.apply(w).sum().backward()
print(w.grad)
for batch in DataLoader(TensorDataset(torch.arange(4.0)), batch_size=2):
    print(batch)
print(F.softmax(torch.tensor([1.0, 2.0]), dim=0))
print(torch.finfo(torch.float32).eps, torch.cuda.is_available())
with torch.no_grad():
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled(), torch.ones(1).dtype, torch.tensor(1.5).dtype)
"""

# One admitted path to unwritten memory per probe, each at most 4,096 elements (larger
# tensors are summarised with numpy, whose OpenBLAS dot hangs in a confined worker: see
# test_a_large_tensor_does_not_hang_the_worker). Each prints how many elements hold
# the marker and how many are non-zero; the tensor's own values are in the trace too.
MEMORY_PROBES = {
    "empty": "import torch\nm = 31336.0 + 1.0\nn = 31336 + 1\ne = torch.empty(4096)\n"
    "print(int((e == m).sum()), int(e.count_nonzero()))\n",
    "empty_like": "import torch\nm = 31336.0 + 1.0\ne = torch.empty_like(torch.zeros(4096))\n"
    "print(int((e == m).sum()), int(e.count_nonzero()))\n",
    "new_empty": "import torch\nm = 31336.0 + 1.0\ne = torch.zeros(1).new_empty((4096,))\n"
    "print(int((e == m).sum()), int(e.count_nonzero()))\n",
    "legacy_constructor": "import torch\nm = 31336.0 + 1.0\ne = torch.Tensor(4096)\n"
    "print(int((e == m).sum()), int(e.count_nonzero()))\n",
    "empty_int64": "import torch\nm = 31336.0 + 1.0\nn = 31336 + 1\ne = torch.empty(2048, dtype=torch.int64)\n"
    "print(int((e == n).sum()), int(e.count_nonzero()), int((e > 2 ** 40).sum()))\n",
    "empty_uint8": "import torch\ne = torch.empty(4096, dtype=torch.uint8)\n"
    "print(int((e == 77).sum()), int((e == 51).sum()), int(e.count_nonzero()))\n",
    # torch's own unwritten buffers: MKL-DNN's LSTM saves a workspace for backward that
    # it never fully writes; the trace shows it as a saved tensor.
    "rnn_workspace": "import torch\nfrom torch import nn\ntorch.manual_seed(0)\n"
    "lstm = nn.LSTM(8, 16)\nout, state = lstm(torch.randn(5, 3, 8))\nout.sum().backward()\n",
}

# A job may use a good part of its memory: 9M float64 elements (72 MB, within every
# limit; the worker here has 256 MiB) must succeed whatever ran before (garbage a job left in reference
# cycles, which no collection frees while runs keep the cyclic GC off, would stop it).
HEADROOM_PROBE = """\
import torch
keep = [torch.ones(1000000, dtype=torch.float64) for i in range(9)]
print(len(keep), keep[0].dtype)
"""

PROBES = {"headroom": HEADROOM_PROBE, "state": STATE_PROBE, **MEMORY_PROBES}

MARKER_JOBS = {
    "marker_tensors": "import torch\n"
    "keep = [torch.full((n,), 31337.0) for n in (16, 1024, 4096, 65536, 1000000)]\n"
    "ints = torch.full((2048,), 31337, dtype=torch.int64)\n"
    "print(sum(float(k.sum()) for k in keep))\n",
    "marker_freed_tensors": "import torch\n"
    "for n in (1024, 4096, 65536):\n"
    "    t = torch.full((n,), 31337.0)\n"
    "    t = t * 1\n"
    "    del t\n"
    "x = torch.ones(1)\n",
    "marker_strings_lists": "import torch\n"
    "s = 'M31337' * 10000\n"
    "parts = [s[i:i + 100] for i in range(0, 60000, 100)]\n"
    "ints = [31337] * 100000\n"
    "floats = [31337.0 + 0 * i for i in range(20000)]\n"
    "d = {i: 31337.0 for i in range(1000)}\n"
    "t = torch.tensor(ints)\n"
    "print(len(s), len(parts), len(ints), len(d), int(t.sum()))\n",
    "marker_in_parameters": "import torch\nfrom torch import nn\n"
    "m = nn.Linear(64, 64)\n"
    "with torch.no_grad():\n"
    "    m.weight.fill_(31337.0)\n"
    "opt = torch.optim.Adam(m.parameters(), lr=0.1)\n"
    "m(torch.ones(64)).sum().backward()\n"
    "opt.step()\n",
}

STATE_JOBS = {
    "cyclic_hoard": "import torch\n"
    "class Hoard(torch.autograd.Function):\n"
    "    @staticmethod\n"
    "    def forward(ctx, x):\n"
    "        keep = [torch.ones(1000000, dtype=torch.float64) for i in range(22)]\n"
    "        keep.append(keep)\n"
    "        return x * 1\n"
    "    @staticmethod\n"
    "    def backward(ctx, g):\n"
    "        return g\n"
    "y = Hoard.apply(torch.ones(1, requires_grad=True))\n"
    "cycle = [y]\n"
    "cycle.append(cycle)\n",
    "printoptions": "import torch\n"
    "torch.set_printoptions(precision=10, sci_mode=True, linewidth=20, threshold=5, edgeitems=1)\n"
    "print(torch.tensor([1 / 3]))\n",
    "printoptions_map": "import torch\nlist(map(torch.set_printoptions, [12], [7], [2], [33]))\n",
    "numpy_printoptions": "import numpy as np\n"
    "np.set_printoptions(precision=1, threshold=3, edgeitems=1, suppress=True, nanstr='?')\n"
    "print(np.arange(10) / 3)\n",
    "default_dtype_map": "import torch\nlist(map(torch.set_default_dtype, [torch.float64]))\n",
    "grad_mode_map": "import torch\nlist(map(torch.set_grad_enabled, [False]))\n",
    "no_grad_exception": "import torch\nwith torch.no_grad():\n    x = 1 / 0\n",
    "inference_mode_exception": "import torch\nwith torch.inference_mode():\n    x = [][1]\n",
    "seeded_rng": "import torch\ntorch.manual_seed(99)\nprint(torch.rand(5))\n",
    "wall_time_in_no_grad": "import torch\nwith torch.no_grad():\n    while True:\n        pass\n",
    "warn_once_transpose": "import torch\nprint(torch.ones(2, 2, 2).T.shape)\n",
    "format_escape_read": "import torch\n"
    'show = "{0.__globals__[torch].os.environ}".format\n'
    "print(len(show(torch.nn.functional.relu)))\n",
}


def _files(prefix: str) -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(HOSTILE.glob(f"{prefix}*.py"))}


JOBS: dict[str, str] = {
    **MARKER_JOBS,
    **STATE_JOBS,
    **_files("state_"),
    **_files("mem_"),
    **_files("super_"),
}


class _Probed:
    """The app with one worker, and the probes' traces as last seen."""

    def __init__(self, api: AppClient) -> None:
        self.api = api
        self.last: dict[str, Any] | None = None
        self.runs = 0

    async def post(self, source: str) -> Any:
        # A distinct comment per request: nothing is served from a cache or coalesced.
        self.runs += 1
        return await self.api.client.post(
            "/api/trace", json={"source": f"{source}# request {self.runs}\n"}
        )

    async def probe(self) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for name, source in PROBES.items():
            response = await self.post(source)
            assert response.status_code == 200, (name, response.status_code, response.text[:300])
            assert MARKER not in response.text, f"probe {name!r} shows the marker {MARKER}"
            seen[name] = comparable(response.content)
        return seen


@pytest.fixture(scope="module")
async def probed(anyio_backend: str) -> AsyncIterator[_Probed]:
    async for api in open_app(make_settings(workers=1, cache_mb=0, memory=256)):
        yield _Probed(api)


def _differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return [name for name in PROBES if before[name] != after[name]]


def _explain(before: dict[str, Any], after: dict[str, Any]) -> str:
    changed = _differences(before, after)
    memory = [n for n in changed if n in MEMORY_PROBES]
    state = [n for n in changed if n not in MEMORY_PROBES]
    parts = []
    if state:
        fields = sorted(k for k in after["state"] if after["state"][k] != before["state"].get(k))
        parts.append(f"torch state changed (trace fields {fields})")
    if memory:
        parts.append(f"unwritten memory differs through {memory}")
    return "; ".join(parts)


async def test_probe_twice_is_the_same(probed: _Probed) -> None:
    """Nothing between two probes: they must agree (uninitialised memory, warn-once)."""
    first = await probed.probe()
    second = await probed.probe()
    warn_once = "import torch\nx = torch.ones(2, 2, 2)\nprint(x.T.shape)\n"
    a = await probed.post(warn_once)
    b = await probed.post(warn_once)
    probed.last = second
    problems = [
        f"probes that differ on a second run: {name}" for name in _differences(first, second)
    ]
    if comparable(a.content) != comparable(b.content):
        problems.append(
            "a warning shown to one job is hidden from the next (per-process warn-once)"
        )
    assert not problems, problems


@pytest.mark.parametrize("job", sorted(JOBS), ids=str)
async def test_job_leaves_nothing_for_the_next(probed: _Probed, job: str) -> None:
    before = probed.last if probed.last is not None else await probed.probe()
    await probed.post(JOBS[job])  # whatever it answers: refused, failed, or ran
    after = await probed.probe()
    probed.last = after
    assert not _differences(before, after), f"after job {job!r}: {_explain(before, after)}"


# Programs whose gradient-check runs differ from the plain run: a leaf element moved by
# eps changes a branch. Each must get a GradCheck answer (HTTP 200, ok false or a note).
GRADCHECK_JOBS = {
    "raises_when_perturbed": "import torch\n"
    "w = torch.ones(3, requires_grad=True)\n"
    "if float(w.sum()) != 3.0:\n"
    "    raise ValueError('perturbed run')\n"
    "(w * 2).sum().backward()\n",
    "no_backward_when_perturbed": "import torch\n"
    "w = torch.ones(3, requires_grad=True)\n"
    "if float(w.sum()) == 3.0:\n"
    "    (w * 2).sum().backward()\n",
    "loops_when_perturbed": "import torch\n"
    "w = torch.ones(3, requires_grad=True)\n"
    "n = 0\n"
    "if float(w.sum()) != 3.0:\n"
    "    while True:\n"
    "        n = n + 1\n"
    "(w * 2).sum().backward()\n",
    "state_change_when_perturbed": "import torch\n"
    "w = torch.ones(3, requires_grad=True)\n"
    "if float(w.sum()) != 3.0:\n"
    "    list(map(torch.set_default_dtype, [torch.float64]))\n"
    "    torch.set_printoptions(precision=9)\n"
    "(w * 2).sum().backward()\n",
}


@pytest.mark.parametrize("job", sorted(GRADCHECK_JOBS), ids=str)
async def test_gradcheck_job_answers_and_leaves_nothing(probed: _Probed, job: str) -> None:
    before = probed.last if probed.last is not None else await probed.probe()
    probed.runs += 1
    response = await probed.api.client.post(
        "/api/gradcheck", json={"source": f"{GRADCHECK_JOBS[job]}# request {probed.runs}\n"}
    )
    after = await probed.probe()
    probed.last = after
    assert response.status_code == 200, (response.status_code, response.text[:300])
    assert not _differences(before, after), f"after gradcheck {job!r}: {_explain(before, after)}"


async def test_a_large_tensor_does_not_hang_the_worker(probed: _Probed) -> None:
    """Not a leak but what every later job meets: in a confined worker (RLIMIT_NPROC 0 as
    nobody) OpenBLAS cannot start its threads, and numpy's dot in tensorvalues.stats_of
    (tensors of 65,536+ elements are summarised) then waits for them until the job is
    killed at its timeout. A plain 65,536-element tensor must trace quickly."""
    response = await probed.post("import torch\nx = torch.zeros(65536)\nprint(x.shape)\n")
    assert response.status_code == 200
    data = response.json()
    assert data["ok"], data["error"]
