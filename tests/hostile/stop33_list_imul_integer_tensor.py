# expect: LimitError
# xs *= torch.tensor(n) repeats the list in place
import torch
xs = [0]
xs *= torch.tensor(10**9)
