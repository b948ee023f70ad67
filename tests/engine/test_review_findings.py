"""Issue 15, findings 2-5: what one job leaves behind, and what the trace writer runs."""

from __future__ import annotations

import pytest

import gradtrace
from gradtrace.language.limits import Limits

LIMITS = Limits(wall_time_s=10.0)


def run(source: str) -> gradtrace.Trace:
    return gradtrace.run(source, limits=LIMITS)


@pytest.mark.parametrize(
    "expr",
    [
        "torch.empty(2000)",
        "torch.empty(40, 50)",
        "torch.empty_like(torch.ones(2000))",
        "torch.ones(3).new_empty(2000)",
        "torch.ones(3).new_empty((40, 50))",
        "torch.Tensor(2000)",
        "torch.Tensor(40, 50)",
        "torch.Tensor(torch.Size([2000]))",
        "torch.Tensor.new_empty(torch.ones(1), 2000)",
    ],
)
def test_uninitialised_memory_is_zeros_after_another_job(expr: str) -> None:
    for _ in range(3):
        leak = run("import torch\na = torch.full((2000,), 31337.0)\nb = a * 2\nc = b + 1\n")
        assert leak.ok, leak.error
        trace = run(f"import torch\nx = {expr}\nprint(bool((x == 0).all()), x.numel())\n")
        assert trace.ok, trace.error
        assert trace.stdout.startswith("True 2000"), (expr, trace.stdout)


def test_tensor_constructor_with_data_is_unchanged() -> None:
    trace = run(
        "import torch\nprint(torch.Tensor([1, 2]), torch.Tensor((3,)), torch.Tensor(torch.ones(2)))\n"
    )
    assert trace.stdout == "tensor([1., 2.]) tensor([3.]) tensor([1., 1.])\n"


def test_error_message_of_a_huge_or_deep_value_is_bounded() -> None:
    trace = run("x = []\nfor i in range(20000):\n    x = [x]\nraise ValueError(x)\n")
    assert trace.error is not None and trace.error.type == "LimitError"
    trace = run("x = []\nfor i in range(50):\n    x = [x, 'y' * 1000]\nraise ValueError(x)\n")
    assert trace.error is not None and trace.error.type == "ValueError"
    assert len(trace.error.message) < 2_000
    trace = run("raise KeyError(list(range(100000)))\n")
    assert trace.error is not None and len(trace.error.message) <= 2_003


def test_trace_writer_runs_no_program_code_after_the_run() -> None:
    source = """import torch
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 1)
    def named_parameters(self, *args, **kwargs):
        raise ValueError("not after the run")
    def parameters(self, *args, **kwargs):
        raise ValueError("not after the run")
    def named_modules(self, *args, **kwargs):
        raise ValueError("not after the run")
    def forward(self, x):
        return self.lin(x)
m = M()
y = m(torch.ones(2)).sum()
"""
    trace = run(source)
    assert trace.ok, trace.error
    assert {n.name for n in trace.nodes if getattr(n, "name", None)} >= {
        "m.lin.weight",
        "m.lin.bias",
    }


def test_dataloader_positional_arguments_still_work() -> None:
    trace = run(
        "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n"
        "ds = TensorDataset(torch.arange(4.0))\n"
        "print([b[0].tolist() for b in DataLoader(ds, 2, False)])\n"
    )
    assert trace.stdout == "[[0.0, 1.0], [2.0, 3.0]]\n"


def test_super_still_reaches_init_admitted_methods_and_own_methods() -> None:
    source = """import torch
import torch.nn as nn
class A(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(2))
    def scale(self):
        return 2
class B(A):
    def scale(self):
        return super().scale() * 3
    def parameters(self):
        return super(B, self).parameters()
b = B()
print(b.scale(), len(list(b.parameters())))
"""
    trace = run(source)
    assert trace.ok, trace.error
    assert trace.stdout == "6 1\n"


def test_keys_and_comparisons_of_ordinary_containers_still_work() -> None:
    trace = run(
        "d = {(1, (2, 3)): 'a'}\nd[(4,)] = 'b'\nprint(d[(1, (2, 3))], (4,) in d, {(1,), (1,)},\n"
        "      set([(1, 2)]), dict([(1, 2)]), [[1], [2]] == [[1], [2]], (1, 2) < (1, 3))\n"
    )
    assert trace.ok, trace.error
    assert trace.stdout == "a True {(1,)} {(1, 2)} {1: 2} True True\n"


def test_dict_and_set_builtins_take_mappings_and_iterables() -> None:
    trace = run(
        "import torch\nm = torch.nn.Linear(1, 1)\n"
        "print(sorted(dict(m.state_dict())), list(dict(m.named_parameters())),\n"
        "      sorted(set(zip([1, 2], [3, 4]))), dict(zip('ab', [1, 2])))\n"
    )
    assert trace.ok, trace.error
    assert trace.stdout == (
        "['bias', 'weight'] ['weight', 'bias'] [(1, 3), (2, 4)] {'a': 1, 'b': 2}\n"
    )
