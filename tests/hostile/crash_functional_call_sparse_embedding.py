# expect: ForbiddenError
# functional_call calls the module through the same checks as a direct call
import torch
emb = torch.nn.Embedding(10, 3, sparse=True)
out = torch.func.functional_call(emb, {}, (torch.tensor([1, 2]),))
out.sum().backward()
