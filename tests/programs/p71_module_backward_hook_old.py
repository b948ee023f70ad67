# Module.register_backward_hook, the hook older tutorials register (before the "full"
# one): it sees the grads of the module's last autograd node, and what it returns
# replaces them; its handle removes it.
import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.Linear(3, 2)
x = torch.randn(4, 3, requires_grad=True)


def halve(module, grad_input, grad_output):
    print(type(module).__name__, len(grad_input), [tuple(g.shape) for g in grad_output])
    return tuple(None if g is None else g / 2 for g in grad_input)


handle = layer.register_backward_hook(halve)
layer(x).pow(2).sum().backward()
print(x.grad)
print(layer.weight.grad)
handle.remove()
x.grad = None
layer(x).pow(2).sum().backward()
print(x.grad)
