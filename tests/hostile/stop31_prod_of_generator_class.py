# expect: LimitError
# math.prod() multiplies in C what a generator method of the program yields
import math

import torch


class Pair:
    def __iter__(self):
        yield torch.ones(30000, 1)
        yield torch.ones(1, 30000)


print(math.prod(Pair()).shape)
