# expect: ForbiddenError
# The parameters are read by their names only; torch s own attributes are not admitted.
import torch
from torch.distributions import Categorical

d = Categorical(logits=torch.zeros(3))
print(d._param)
