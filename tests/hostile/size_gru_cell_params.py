# expect: LimitError
# nn.GRUCell(5, 1500): 3*1500 x 1500 = 6.75M-element weight_hh past the per-tensor limit
import torch
m = torch.nn.GRUCell(5, 1500)
print(m.weight_hh.numel())
