# expect: LimitError
# vjp_fn under vmap runs its backward pass once per example, over all the function made
import torch
from torch.func import vjp, vmap
x = torch.ones(2000)
out, vjp_fn = vjp(lambda t: torch.outer(t, t).sum(0), x)
print(vmap(vjp_fn)(torch.ones(2000, 2000))[0].shape)
