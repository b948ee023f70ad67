# expect: LimitError
# A decorator returning functools.partial of torch.ones: the partial is held checked, and its
# call of torch.ones is sized.
import functools
import torch


class P:
    @(lambda f: functools.partial(torch.ones, 100_000))
    def make(self):
        pass


print(P().make(100_000).shape)
