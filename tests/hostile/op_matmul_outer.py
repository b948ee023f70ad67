# expect: LimitError
import operator
import torch
print(operator.matmul(torch.ones(3000, 1), torch.ones(1, 3000)).shape)
