# expect: LimitError
# batch dims of loc broadcast against one matrix: torch checks the matrix (a Cholesky) at the batch size, 4,000 x 100 x 100
import torch
from torch.distributions import MultivariateNormal
d = MultivariateNormal(torch.zeros(4000, 100), torch.eye(100))
print(d.batch_shape)
