# expect: ForbiddenError
# worker_init_fn as the 11th positional argument: a program function runs in a forked worker process
import torch
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.arange(8.0))
def init(worker_id):
    print("in worker", worker_id)
for batch in DataLoader(ds, 4, False, None, None, 1, None, False, False, 0, init):
    print(batch)
