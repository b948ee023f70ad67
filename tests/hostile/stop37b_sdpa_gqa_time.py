# expect: LimitError
# enable_gqa=True: query's and key's heads (4 and 2) do not broadcast, so _check_scaled_dot_product returns early ("torch says why itself") and torch computes 4 x 62500 x 125000 scores (~1e12 multiply-adds, flash kernel: no big buffer) in one C call, far past the 5 s limit
import torch
import torch.nn.functional as F
q = torch.zeros(1, 4, 62500, 16)
k = torch.zeros(1, 2, 125000, 16)
v = torch.zeros(1, 2, 125000, 16)
out = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
print(out.shape)
