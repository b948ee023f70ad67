# expect: LimitError
# set_grad_enabled(False) on the autograd engine's reentrant pool thread: thread-local state the job's reset never touches
import torch
x = torch.ones(1, requires_grad=True)
n = [0]
def hook(g):
    n[0] += 1
    if n[0] < 80:
        with torch.enable_grad():
            b = (x * 1).sum().backward
            b()
    else:
        torch.set_grad_enabled(False)
    return g
x.register_hook(hook)
(x * 2).sum().backward()
print(n, torch.is_grad_enabled())
