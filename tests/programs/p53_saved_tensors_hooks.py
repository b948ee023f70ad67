"""torch.autograd.graph.saved_tensors_hooks and save_on_cpu: the program's pack and unpack
hooks, called by torch as ops save tensors and as backward (or a read of `_saved_x`) needs
them back; a custom Function's saved tensors go through them too."""

import torch
import torch.autograd.graph as graph

calls = []


def pack(t):
    calls.append(("pack", tuple(t.shape)))
    return t * 2


def unpack(t):
    calls.append(("unpack", tuple(t.shape)))
    return t / 2


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (x * w).exp()
    z = y.sum()
print(calls)
print(y.grad_fn._saved_result)  # reading it runs unpack
print(calls[-1])
z.backward()
print(x.grad, w.grad)
print(len(calls))

# pack returns an index into the program's own storage; unpack looks it up
storage = []


def pack_index(t):
    storage.append(t.clone())
    return len(storage) - 1


def unpack_index(i):
    return storage[i]


a = torch.linspace(-1.0, 1.0, 4, requires_grad=True)
with graph.saved_tensors_hooks(pack_index, unpack_index):
    b = torch.sin(a) * a
b.sum().backward()
print(len(storage), a.grad)

# nested: the inner hooks win; a tuple with a function of the program's, as packed data
def pack_pair(t):
    return (t.device, t, lambda u: u + 0.0)


def unpack_pair(p):
    device, t, f = p
    return f(t).to(device)


c = torch.tensor([0.25, 4.0], requires_grad=True)
with graph.saved_tensors_hooks(pack, unpack):
    with graph.saved_tensors_hooks(pack_pair, unpack_pair):
        d = c.log() * c
    e = d.pow(2).sum()
e.backward()
print(c.grad)


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        ctx.save_for_backward(inp)
        return inp * inp

    @staticmethod
    def backward(ctx, grad):
        (inp,) = ctx.saved_tensors
        return 2 * inp * grad


calls.clear()
s = torch.tensor([3.0, -2.0], requires_grad=True)
with graph.saved_tensors_hooks(pack, unpack):
    q = Square.apply(s)
q.sum().backward()
print(calls, s.grad)

m = torch.nn.Linear(3, 2)
inp = torch.ones(4, 3)
with torch.autograd.graph.save_on_cpu():
    loss = m(inp).tanh().sum()
loss.backward()
print(m.weight.grad.shape, m.bias.grad)
