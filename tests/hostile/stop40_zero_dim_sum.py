# expect: LimitError
# Not the distributions' own: a zero-element tensor may have a huge dim, and sum over the
# zero dim makes that dim whole (torch.zeros(0, 10**9).sum(0): 4 GB) before any check.
import torch

x = torch.zeros(0, 10**9)
y = x.sum(0)
print(y.shape)
