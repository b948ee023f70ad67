# expect: LimitError|ForbiddenError
# Categorical(logits).expand((-1, N)): the check reads -N * K; torch keeps 3000 rows.
# .probs is a lazy_property: softmax of the expanded logits, 3000 x 3000 x 4 elements,
# made on a property read that nothing checks.
import torch
from torch.distributions import Categorical

d = Categorical(logits=torch.zeros(3000, 1, 4)).expand((-1, 3000))
p = d.probs
print(p.shape, p.numel())
