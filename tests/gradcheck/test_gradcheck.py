"""gradtrace's numerical gradient check agrees with torch.autograd.gradcheck's verdict."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest
import torch

from gradtrace.gradcheck import check_gradients

FUNCTION = """
import torch


class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone(){scale}
        grad_input[input < 0] = 0
        return grad_input


w = torch.tensor([[3.0, 1.0]], requires_grad=True)
b = torch.tensor([[3.0]], requires_grad=True)
X = torch.tensor([[-1.0, -1.0], [1.0, 1.0]])
Y = torch.tensor([[2.0, 3.0]])
Y_hat = MyReLU.apply(X @ w.t() + b)
loss = torch.mean(torch.pow(Y_hat - Y, 2))
loss.backward()
"""

CASES = {"correct backward": "", "backward twice too large": " * 2", "backward negated": " * -1"}


def _torch_verdict(source: str, tmp_path: Path) -> bool:
    """torch.autograd.gradcheck on the program's own Function, in double precision."""
    path = tmp_path / "program.py"
    path.write_text(source)
    namespace = runpy.run_path(str(path))
    x = torch.tensor([[-1.5, 0.7], [2.0, -0.3]], dtype=torch.float64, requires_grad=True)
    return bool(torch.autograd.gradcheck(namespace["MyReLU"].apply, (x,), raise_exception=False))


@pytest.mark.parametrize("case", list(CASES))
def test_verdict_matches_torch_gradcheck(case: str, tmp_path: Path) -> None:
    source = FUNCTION.format(scale=CASES[case])
    expected = _torch_verdict(source, tmp_path)
    result = check_gradients(source)
    assert result.ok
    assert {leaf.name for leaf in result.leaves} == {"w", "b"}
    assert all(leaf.agree == expected for leaf in result.leaves), result


def test_numeric_gradient_is_close_to_autograd_for_a_module() -> None:
    source = """
import torch
from torch import nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
x = torch.randn(5, 3)
loss = model(x).pow(2).mean()
loss.backward()
"""
    result = check_gradients(source, max_elements=40)
    assert result.ok
    sizes = [
        p.numel()
        for p in torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Linear(4, 1)).parameters()
    ]
    assert sum(leaf.checked for leaf in result.leaves) == min(40, sum(sizes))
    assert [leaf.checked for leaf in result.leaves] == sizes
    assert all(leaf.agree for leaf in result.leaves), result
    for leaf in result.leaves:
        assert leaf.autograd == pytest.approx(leaf.numeric, rel=2e-2, abs=2e-3)


def test_program_without_backward_says_so() -> None:
    result = check_gradients("import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 2\n")
    assert not result.ok
    assert result.note is not None and "no backward pass" in result.note


def test_program_error_is_reported_with_its_line() -> None:
    result = check_gradients("import torch\nx = torch.ones(2)\ny = x @ torch.ones(3)\n")
    assert not result.ok
    assert result.error is not None and result.error.type == "RuntimeError"
    assert result.error.line == 3
