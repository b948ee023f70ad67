# expect: RuntimeError
# a tensor of vmap's kept past the vmap: torch's own error on use, and the trace still written
import torch
from torch.func import vmap
kept = []
def f(r):
    kept.append(r * 2)
    return r.sum()
y = vmap(f)(torch.ones(3, 4))
z = kept[0]
print(z + 1)
