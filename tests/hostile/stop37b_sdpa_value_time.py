# expect: LimitError
# value's broadcast batch (2000) multiplies the work: the check counts batch(q,k) x L x S x (E+Ev) = 8M multiply-adds, torch does 2000 x 2000 x 2000 = 8e9 in one C call; output 4M elements (within the limit), so nothing else refuses it
import torch
import torch.nn.functional as F
q = torch.zeros(1, 1, 2000, 1)
k = torch.zeros(1, 1, 2000, 1)
v = torch.zeros(2000, 1, 2000, 1)
out = F.scaled_dot_product_attention(q, k, v)
print(out.shape)
