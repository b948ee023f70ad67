# expect: LimitError
# random.uniform(a, b) is a + (b - a) * random() in Python's random module: two tensors
# broadcast there to 900,000,000 elements, past the evaluator's own arithmetic checks
import random

import torch

print(random.uniform(torch.zeros(30000, 1), torch.ones(1, 30000)).shape)
