# expect: LimitError|ForbiddenError
# Categorical.entropy() after expand((-1, N)): clamp(logits) * probs over the expanded
# logits, 40000 x 40000 x 2 made before the result check.
import torch
from torch.distributions import Categorical

d = Categorical(logits=torch.zeros(40000, 1, 2)).expand((-1, 40000))
print(d.batch_shape)
y = d.entropy()
print(y.shape, y.numel())
