# expect: LimitError
# a module called per example inside vmap runs over the whole batch at once: its attention
# is sized against the limit divided by the batch (1,000 x 1,900 x 1,900 scores here)
import torch
mha = torch.nn.MultiheadAttention(2, 1, batch_first=True)
q = torch.ones(1000, 1, 1900, 2)
out = torch.vmap(lambda x: mha(x, x, x, need_weights=False)[0])(q)
print(out.shape)
