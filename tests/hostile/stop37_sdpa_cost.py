# expect: LimitError
# few scores but wide embeddings: 14 billion multiply-adds in one C call the alarm cannot interrupt
import torch
import torch.nn.functional as F
q = torch.randn(1, 1, 1900, 2000)
y = F.scaled_dot_product_attention(q, q, q)
print(y.shape)
