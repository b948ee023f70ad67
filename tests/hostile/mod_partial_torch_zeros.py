# expect: LimitError
import functools
import torch
f = functools.partial(torch.zeros, 10 ** 9)
f()
