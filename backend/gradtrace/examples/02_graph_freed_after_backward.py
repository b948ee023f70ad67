# title: The graph is freed after backward
# summary: A second backward() through the same graph fails with a RuntimeError.
# lesson: To save memory, backward() frees the tensors each function saved for it as
#   soon as it has used them. The graph's structure remains, but its saved values are
#   gone, so a second backward() through it raises the RuntimeError you see at the
#   end. Pass retain_graph=True to the first call to keep them.

import torch

w = torch.tensor([[3.0, 1.0]], requires_grad=True)
b = torch.tensor([[3.0]], requires_grad=True)
X = torch.randn(10, 2)
Y = torch.randn(10, 1)
Y_hat = X @ w.t() + b
loss = torch.mean(torch.pow(Y_hat - Y, 2))

loss.backward()
print(w.grad, b.grad)
loss.backward()  # RuntimeError: Trying to backward through the graph a second time
