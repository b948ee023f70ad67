# expect: LimitError
# sum() adds in C what a class of the program yields from __iter__: tensors of these shapes
# broadcast to 900,000,000 elements (3.6 GB) before any check after the call
import torch


class Pair:
    def __iter__(self):
        return iter([torch.ones(30000, 1), torch.ones(1, 30000)])


print(sum(Pair()).shape)
