# expect: LimitError
# the comparison walks into the lists the tuples hold
import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print((1, [a]) == (1, [b]))
