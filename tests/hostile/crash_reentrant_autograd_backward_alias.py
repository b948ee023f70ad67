# expect: LimitError
# torch.autograd.backward reached through a dict (identity differs from the recorder's special?) nested in hooks
import torch
calls = {"bw": torch.autograd.backward}
x = torch.ones(1, requires_grad=True)
n = [0]
def hook(g):
    n[0] += 1
    if n[0] < 80:
        with torch.enable_grad():
            calls["bw"]([(x * 1).sum()])
    return g
x.register_hook(hook)
(x * 2).sum().backward()
print(n)
