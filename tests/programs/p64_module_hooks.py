"""Module hooks as the PyTorch tutorials show them (forward, forward pre, full backward),
and torch's in-place functions (torch.sin_ and friends), with their lesson."""

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
activations = {}


def save_activation(name):
    def hook(module, inputs, output):
        activations[name] = output.detach()
        print("forward hook", name, tuple(output.shape))

    return hook


def pre(module, inputs):
    print("pre hook", type(module).__name__, tuple(inputs[0].shape))


def backward_hook(module, grad_input, grad_output):
    print("backward hook", type(module).__name__, tuple(grad_output[0].shape))


h1 = model[0].register_forward_hook(save_activation("fc1"))
h2 = model[2].register_forward_pre_hook(pre)
h3 = model[2].register_full_backward_hook(backward_hook)
x = torch.randn(2, 3)
out = model(x).sum()
out.backward()
print(sorted(activations), activations["fc1"].shape)
h1.remove()
h2.remove()
h3.remove()
model(x)

a = torch.ones(3, requires_grad=True)
b = a * 2
torch.sin_(b)
torch.relu_(b)
b.sum().backward()
print(a.grad)
try:
    torch.sin_(a)
except RuntimeError as e:
    print("RuntimeError:", e)
