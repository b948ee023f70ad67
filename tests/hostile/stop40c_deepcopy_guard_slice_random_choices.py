# expect: TypeError|LimitError
# (the copier refuses the module stand-in itself now, as CPython cannot pickle a module)
# choices through a `random` stand-in copied from a slice: choices is gradtrace's own function (shared by deepcopy as a function), so its weights are still sized: 4e8 elements refused
import copy
import random
import torch
r = copy.deepcopy(slice(None, random)).stop
w = [torch.zeros(20000, 1), torch.zeros(1, 20000)]
print(r.choices([1, 2], weights=w, k=1))
