# expect: LimitError
# `x in obj` without __contains__ iterates obj in C (the program's __iter__), comparing each item
import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)


class Batches:
    def __iter__(self):
        return iter([b])


print(a in Batches())
