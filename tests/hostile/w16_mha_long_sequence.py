# expect: LimitError
# MultiheadAttention scores every query position against every key position in one C
# call (60,000 x 60,000 here, from inputs of 240,000 elements): it ran 11 s against 2
import torch
mha = torch.nn.MultiheadAttention(4, 1)
q = torch.ones(60000, 1, 4)
out, _ = mha(q, q, q, need_weights=False)
print(out.shape)
