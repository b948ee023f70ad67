import torch

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a * b
d = c + a
e = d.exp()
print(e.grad_fn)
print(e.grad_fn.next_functions)
print(d.grad_fn.next_functions[0][0].next_functions)
print(a.grad_fn, a.is_leaf, c.is_leaf, e.requires_grad)
print(c.grad_fn.name())
e.backward()
print(a.grad.item(), b.grad.item())
print(e.tolist(), a.item(), torch.tensor([[1, 2], [3, 4]]).tolist())
