# expect: LimitError
# functools.reduce and itertools read their iterable in C: a tensor is unbound row by row
# into 4,000,000 tensors before the first call
import functools
import torch
x = torch.ones(4000000)
print(functools.reduce(lambda a, b: a, x))
