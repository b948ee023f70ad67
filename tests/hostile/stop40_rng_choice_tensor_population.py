# expect: LimitError
# choice(torch.tensor(n), k, replace=False): a 0-d tensor is read by numpy as the
# population n but is not an int to the rule; the legacy choice permutes range(1e8)
import numpy as np
import torch
rs = np.random.RandomState(0)
print(rs.choice(torch.tensor(100000000), 3, replace=False))
