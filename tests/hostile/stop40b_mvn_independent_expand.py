# expect: LimitError
# Independent(MultivariateNormal).expand: each new element carries a 400 x 400 matrix
import torch
from torch.distributions import MultivariateNormal, Independent
d = Independent(MultivariateNormal(torch.zeros(10, 400), torch.eye(400)), 1)
print(d.expand((100,)).covariance_matrix.shape)
