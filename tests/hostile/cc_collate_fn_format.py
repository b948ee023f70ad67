# expect: ForbiddenError
# DataLoader(collate_fn=str.format): torch calls it on a batch drawn from a plain list dataset
import torch
from torch.utils.data import DataLoader
F = torch.nn.functional
for batch in DataLoader([F.relu], collate_fn="{0[0].__globals__[torch].os.environ}".format):
    print(batch[:60])
