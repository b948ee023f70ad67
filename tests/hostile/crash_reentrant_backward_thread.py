# expect: LimitError
# backward() called through an alias from a hook, 90 levels deep: past autograd's reentrant depth (60) the engine starts a pool thread that outlives the job
import torch
x = torch.ones(1, requires_grad=True)
n = [0]
def hook(g):
    n[0] += 1
    if n[0] < 90:
        with torch.enable_grad():
            run = (x * 1).sum().backward
            run()
    return g
x.register_hook(hook)
(x * 2).sum().backward()
print(n)
