# expect: LimitError
# enable_gqa=True with dropout_p (torch's math path, which materializes the scores): 4 x 3000 x 3000 = 36M scores (4 over the 4M tensor limit x9) in one C call, unchecked because query and key heads do not broadcast
import torch
import torch.nn.functional as F
q = torch.zeros(1, 4, 3000, 1)
k = torch.zeros(1, 2, 3000, 1)
v = torch.zeros(1, 2, 3000, 1)
out = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5, enable_gqa=True)
print(out.shape)
