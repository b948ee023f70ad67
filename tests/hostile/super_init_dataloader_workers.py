# expect: ForbiddenError
# super(DataLoader, dl).__init__ is torch's DataLoader.__init__: the wrapper's num_workers refusal is skipped
import torch
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.arange(8.0))
newobj = torch.nn.ParameterDict()["__reduce_ex__"](2)[0]
dl = newobj(DataLoader)
super(DataLoader, dl).__init__(ds, batch_size=4, num_workers=2, persistent_workers=True)
for batch in dl:
    print(batch)
