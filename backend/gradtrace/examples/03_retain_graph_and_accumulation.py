# title: retain_graph and accumulation
# summary: With retain_graph=True a second backward() works, and the gradients add up.
# lesson: retain_graph=True keeps the saved tensors, so the same graph can be walked
#   twice. Each walk adds its gradient to x.grad rather than replacing it: after two
#   passes x.grad is twice the derivative. This is why training loops zero the
#   gradients before each backward pass.

import torch

x = torch.tensor(3.0, requires_grad=True)
y1 = x + 1
y2 = 2 * x
loss = (y1 - y2) ** 2

loss.backward(retain_graph=True)
print(x.grad)  # tensor(4.)
loss.backward()
print(x.grad)  # tensor(8.): accumulated
x.grad.zero_()
print(x.grad)
