# expect: LimitError
# autograd.backward of a generator of 900,000 roots: counted as a list of them is
import torch

x = torch.ones(1, requires_grad=True)
y = (x * 2).sum()
torch.autograd.backward(y for a in range(1000) for b in range(900))
print(x.grad)
