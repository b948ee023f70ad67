# expect: LimitError
import operator
import torch
print(operator.mul(torch.ones(100000, 1), torch.ones(100000)).shape)
