# title: retain_grad and hooks
# summary: Keep a non-leaf gradient with retain_grad(), or watch it pass with a hook.
# lesson: A hook registered on a tensor is called with that tensor's gradient while
#   the backward pass runs, in the order the engine reaches it. retain_grad() asks
#   PyTorch to keep a non-leaf's gradient in .grad, as it does for leaves.

import torch

x = torch.tensor(3.0, requires_grad=True)
y1 = x + 1
y2 = 2 * x
loss = (y1 - y2) ** 2

y1.register_hook(lambda grad: print("y1 grad:", grad))
y2.register_hook(lambda grad: print("y2 grad:", grad))
loss.retain_grad()

loss.backward()
print("loss.grad:", loss.grad)
print("x.grad:", x.grad)
