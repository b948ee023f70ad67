# expect: LimitError
# random.gauss(mu, sigma) is mu + z * sigma, computed inside Python's random module
import random

import torch

print(random.gauss(torch.zeros(30000, 1), torch.ones(1, 30000)).shape)
