# expect: LimitError
# a list of tensors: the operand check reads a tensor item as a scalar, so [t] * 30 counts 30 elements while numpy builds 120,000,000 (30x the limit) and the sum runs to its end
import numpy as np
import torch
t = torch.ones(4000000)
print(np.sum([t] * 30))
