# expect: LimitError
import torch
mha = torch.nn.MultiheadAttention(4, 1, batch_first=True)
q = torch.ones(1, 3000, 4)
out, _ = mha(query=q, key=q, value=q, need_weights=False)
print(out.shape)
