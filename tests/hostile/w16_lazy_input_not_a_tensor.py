# expect: ForbiddenError
# torch's pre-hook reads .shape of whatever the first call gets: the check looked at
# tensors only, so an object with a shape made a 9M-element weight unchecked
import torch


class Fake:
    shape = (1, 3000)


m = torch.nn.LazyLinear(3000)
try:
    m(Fake())
except TypeError:
    print("forward refused the object, after the weight was made")
print(m.weight.shape)
