# expect: LimitError
# DataLoader(batch_size=None, collate_fn=torch.zeros) over a list holding (3000, 3000): torch builds the 9M tensor inside the loader, never checked
import torch
from torch.utils.data import DataLoader
for t in DataLoader([(3000, 3000)], batch_size=None, collate_fn=torch.zeros):
    print(t.numel())
