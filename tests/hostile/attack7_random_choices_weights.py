# expect: LimitError
# random.choices adds up its weights (itertools.accumulate, in C): two tensor weights
# broadcast to 900,000,000 elements
import random

import torch

print(random.choices([1, 2], [torch.zeros(30000, 1), torch.ones(1, 30000)]))
