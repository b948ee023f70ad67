# expect: LimitError
# the same through the positional form, called by map from inside Python
import torch
list(map(torch.set_printoptions, [4], [float("inf")]))
print(len(repr(torch.rand(2000, 2000))))
