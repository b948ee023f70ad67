# expect: LimitError
# nn.Embedding(10, 1000) looked up with 5000 indices: a 5M output from a Module call
import torch
emb = torch.nn.Embedding(10, 1000)
y = emb(torch.zeros(5000, dtype=torch.long))
print(y.numel())
