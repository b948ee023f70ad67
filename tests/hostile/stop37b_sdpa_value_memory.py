# expect: LimitError
# value's batch broadcast: a (1000,1,1,4000) value and a 25-row query make a 100M-element (400 MB) output that torch allocates before gradtrace's after-the-fact element check: past the 192 MB memory bound inside one C call
import torch
import torch.nn.functional as F
q = torch.zeros(1, 1, 25, 1)
k = torch.zeros(1, 1, 1, 1)
v = torch.zeros(1000, 1, 1, 4000)
out = F.scaled_dot_product_attention(q, k, v)
print(out.shape)
