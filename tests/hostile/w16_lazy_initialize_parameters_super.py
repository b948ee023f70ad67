# expect: ForbiddenError
# a lazy layer's weight is made by torch's pre-hook, after the size check: not by hand
import torch


class Lazy(torch.nn.LazyLinear):
    def grow(self, x):
        super().initialize_parameters(x)


m = Lazy(100000)
m.grow(torch.ones(1, 100000))
print(m.weight.shape)
