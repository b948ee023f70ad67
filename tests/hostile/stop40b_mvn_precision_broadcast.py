# expect: LimitError
# loc (2000, 1, 40) against 2000 precision matrices broadcast to a 2000 x 2000 batch of 40 x 40
import torch
from torch.distributions import MultivariateNormal
d = MultivariateNormal(torch.zeros(2000, 1, 40), precision_matrix=torch.eye(40).expand(2000, 40, 40))
print(d.batch_shape)
