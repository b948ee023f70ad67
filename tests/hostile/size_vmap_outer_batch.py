# expect: LimitError
# a per-example outer product at the limit, times a batch of 2000
import torch
print(torch.func.vmap(lambda a: torch.outer(a, a))(torch.ones(2000, 2000)).shape)
