# expect: LimitError
import functools, torch
functools.reduce(torch.mul, [torch.ones(10 ** 5, 1), torch.ones(1, 10 ** 5)])
