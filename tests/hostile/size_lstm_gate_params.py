# expect: LimitError
# nn.LSTM(10, 1500): the constructor check multiplies the numbers (15,000) but weight_hh is 4*1500 x 1500 = 9M
import torch
m = torch.nn.LSTM(10, 1500)
print(m.weight_hh_l0.numel())
