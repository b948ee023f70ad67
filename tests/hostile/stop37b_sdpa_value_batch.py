# expect: LimitError
# F.scaled_dot_product_attention broadcasts value's batch dims too: _check_scaled_dot_product sizes only query x key, so a (1000,1,1,4000) value makes a 16M-element output past the 4M tensor limit
import torch
import torch.nn.functional as F
q = torch.zeros(1, 1, 4, 1)
k = torch.zeros(1, 1, 1, 1)
v = torch.zeros(1000, 1, 1, 4000)
out = F.scaled_dot_product_attention(q, k, v)
print(out.shape, out.numel())
