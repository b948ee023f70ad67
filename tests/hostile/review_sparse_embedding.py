# expect: ForbiddenError
import torch
emb = torch.nn.Embedding(5, 3, sparse=True)
emb(torch.tensor([1, 2])).sum().backward()
