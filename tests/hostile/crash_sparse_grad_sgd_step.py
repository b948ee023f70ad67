# expect: ForbiddenError|RuntimeError
# a sparse embedding trained with SGD: sparse grads and the optimizer's sparse update path, then serialised
import torch
emb = torch.nn.Embedding(10, 4, sparse=True)
opt = torch.optim.SGD(emb.parameters(), lr=0.1)
for i in range(2):
    opt.zero_grad()
    emb(torch.tensor([i, i + 1])).pow(2).sum().backward()
    opt.step()
print(emb.weight.sum())
