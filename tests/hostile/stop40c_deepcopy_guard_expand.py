# expect: LimitError
# an expanded view (3M elements over one): each copy is counted at its numel
import copy
import torch
x = torch.zeros(1).expand(3_000_000)
ys = [copy.deepcopy(x) for i in range(6)]
print(ys[0].shape)
