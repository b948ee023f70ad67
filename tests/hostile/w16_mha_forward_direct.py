# expect: LimitError
# .forward(...) runs no hooks: 3,000 x 3,000 scores (9M) against a 4M limit
import torch
mha = torch.nn.MultiheadAttention(4, 1)
q = torch.ones(3000, 1, 4)
out, _ = mha.forward(q, q, q, need_weights=False)
print(out.shape)
