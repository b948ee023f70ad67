# expect: LimitError
# autograd.grad makes a gradient per input in C: inputs given as a generator are counted too
import torch

x = torch.ones(1, requires_grad=True)
y = (x * 2).sum()
grads = torch.autograd.grad(y, (x for a in range(1000) for b in range(900)))
print(len(grads))
