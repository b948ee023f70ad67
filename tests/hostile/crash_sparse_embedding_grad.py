# expect: ForbiddenError|RuntimeError
# nn.Embedding(sparse=True) gives the weight a sparse COO .grad: the trace writer asserts on it after the run (500)
import torch
emb = torch.nn.Embedding(5, 3, sparse=True)
emb(torch.tensor([1, 2])).sum().backward()
print(emb.weight.grad.shape)
