import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
data = torch.randn(12, 3)
labels = torch.arange(12)
loader = DataLoader(TensorDataset(data, labels), batch_size=5, shuffle=True)
for bx, by in loader:
    print(by.tolist(), bx.shape)
