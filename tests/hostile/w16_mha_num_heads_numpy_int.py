# expect: LimitError
# num_heads set to a numpy integer: torch's reshapes take it as 8 heads, so must the check
import numpy as np
import torch
mha = torch.nn.MultiheadAttention(8, 1)
mha.num_heads = np.int64(8)
q = torch.ones(1000, 1, 8)
out, _ = mha(q, q, q, need_weights=False)
print(out.shape)
