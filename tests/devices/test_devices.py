"""Devices: what a request may name, what `auto` picks, and the CUDA path where there is one."""

from __future__ import annotations

import pytest
import torch

import gradtrace
from gradtrace import DeviceError, available_devices, resolve_device

PROGRAM = """
import torch
# Deterministic values: CUDA's random stream differs from the CPU's for the same seed.
w = torch.linspace(-1.0, 1.0, 6).reshape(3, 2).requires_grad_()
x = torch.arange(12.0).reshape(4, 3) / 10
loss = torch.tanh(x @ w).pow(2).mean()
loss.backward()
print(loss.item() > 0)
"""


def test_auto_picks_the_best_device_this_machine_has() -> None:
    expected = (
        "cuda" if torch.cuda.is_available() else ("mps" if "mps" in available_devices() else "cpu")
    )
    assert resolve_device("auto") == expected


@pytest.mark.parametrize("name", ["tpu", "cuda:x", "CPU", "", "cuda:123"])
def test_unknown_or_absent_devices_are_refused_with_what_there_is(name: str) -> None:
    with pytest.raises(DeviceError) as info:
        resolve_device(name)
    assert "cpu" in info.value.available
    assert "cpu" in str(info.value)


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has CUDA")
def test_cuda_is_refused_where_there_is_none() -> None:
    with pytest.raises(DeviceError):
        gradtrace.run(PROGRAM, device="cuda")


def test_cpu_trace_says_cpu_on_every_node() -> None:
    trace = gradtrace.run(PROGRAM, device="cpu")
    assert trace.ok and trace.device == "cpu"
    assert {n.device for n in trace.nodes if n.kind == "tensor"} == {"cpu"}


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_trace_has_the_cpu_trace_gradients() -> None:
    on_cpu = gradtrace.run(PROGRAM, device="cpu")
    on_gpu = gradtrace.run(PROGRAM, device="cuda")
    assert on_gpu.ok and on_gpu.device == "cuda"
    assert {n.device for n in on_gpu.nodes if n.kind == "tensor"} == {"cuda:0"}
    cpu_nodes = {n.id: n for n in on_cpu.nodes}
    gpu_nodes = {n.id: n for n in on_gpu.nodes}
    w_cpu = cpu_nodes[on_cpu.variables["w"]]
    w_gpu = gpu_nodes[on_gpu.variables["w"]]
    assert w_cpu.kind == "tensor" and w_gpu.kind == "tensor"
    assert w_cpu.grad is not None and w_gpu.grad is not None
    assert torch.allclose(
        torch.tensor(w_cpu.grad.values), torch.tensor(w_gpu.grad.values), atol=1e-5
    )
