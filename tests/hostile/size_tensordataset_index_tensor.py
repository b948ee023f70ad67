# expect: LimitError
# TensorDataset[index tensor] does advanced indexing inside torch: 9,000 rows of 1,000 = 9M, no check_index (not a Tensor subscript)
import torch
from torch.utils.data import TensorDataset
ds = TensorDataset(torch.ones(10, 1000))
r = ds[torch.zeros(9000, dtype=torch.long)]
print(r[0].numel())
