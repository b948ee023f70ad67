# expect: LimitError
# A decorator returning nn.Linear: the class attribute is the class, and its construction is
# sized as nn.Linear(...) is.
import torch
from torch import nn


class P:
    @(lambda f: nn.Linear)
    def layer(self):
        pass


print(P().layer(100_000, 100_000))
