# expect: LimitError
# nn.Linear(torch.tensor(3000), torch.tensor(3000)): sizes as 0-dim tensors count as 1 in the check
import torch
m = torch.nn.Linear(torch.tensor(3000), torch.tensor(3000))
print(m.weight.numel())
