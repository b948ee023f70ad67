# title: Leaf and non-leaf tensors
# summary: backward() fills .grad on leaves only; intermediate tensors keep None.
# lesson: x is a leaf: you made it, with requires_grad=True. y1, y2 and loss were
#   computed from it, so they are not leaves. The gradient flows through all of them
#   during backward, but PyTorch stores it only on leaves: x.grad is 4, while
#   loss.grad, y1.grad and y2.grad stay None.

import torch

x = torch.tensor(3.0, requires_grad=True)
y1 = x + 1
y2 = 2 * x
loss = (y1 - y2) ** 2

loss.backward()
print("loss.grad:", loss.grad)
print("y1.grad:", y1.grad)
print("y2.grad:", y2.grad)
print(x.grad)

print(x.is_leaf)
print(y1.is_leaf)
print(y2.is_leaf)
print(loss.is_leaf)
