# expect: LimitError
# expand to a large batch: each new element carries a 300 x 300 matrix
import torch
from torch.distributions import MultivariateNormal
d = MultivariateNormal(torch.zeros(300), scale_tril=torch.eye(300))
wide = d.expand((1000,))
print(wide.covariance_matrix.sum())
