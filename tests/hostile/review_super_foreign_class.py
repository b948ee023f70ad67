# expect: ForbiddenError
import torch
from torch.utils.data import DataLoader, TensorDataset
dl = DataLoader(TensorDataset(torch.ones(4)))
super(DataLoader, dl).__init__(TensorDataset(torch.ones(4)), num_workers=2)
