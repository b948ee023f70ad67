# expect: ForbiddenError
from operator import itemgetter
import torch
print(itemgetter(0)(torch.ones(3)))
