# expect: TypeError|LimitError
# (the copier refuses the module stand-in itself now, as CPython cannot pickle a module)
# uniform(a, b) through the copied `random` stand-in: a + (b - a) * random() of a column and a row, 4e8 elements (1.6 GB) made before any check (random.uniform itself is refused before it runs)
import copy
import random
import torch
r = copy.deepcopy(slice(None, random)).stop
y = r.uniform(torch.zeros(20000, 1), torch.ones(1, 20000))
print(y.shape)
