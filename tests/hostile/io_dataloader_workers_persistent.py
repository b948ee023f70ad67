# expect: ForbiddenError
# persistent worker processes started positionally and kept alive by a held iterator
import torch
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.arange(8.0))
dl = DataLoader(ds, 4, False, None, None, 2, persistent_workers=True)
it = iter(dl)
print(next(it))
