# expect: ForbiddenError
# A class built on IterableDataset is made by ABCMeta, which keeps its own `_abc_impl`
# in the class (a body's `_abc_impl` is overwritten by it; setattr after the body is
# not). Set to the program's value, every isinstance/issubclass against the
# collections.abc.Iterable tree in the process that walks to this class raises
# (torch's own `_pair(kernel_size)` in nn.Conv2d: "_abc_impl is set to a wrong type").
# Python's machinery on the class, as torch's `_` names on a Module: refuse it.
import torch
from torch import nn
from torch.utils.data import IterableDataset


class D(IterableDataset):
    def __iter__(self):
        return iter([torch.ones(1)])


setattr(D, "_abc_impl", 5)


class P:
    def __int__(self):
        return 2


try:
    nn.Conv2d(1, 1, P())
except TypeError as e:
    print("TypeError:", e)
