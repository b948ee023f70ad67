import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(3, 5, requires_grad=True)
p = F.softmax(logits, dim=1)
lp = F.log_softmax(logits, dim=-1)
q = torch.softmax(logits, 0)
print(p.sum(dim=1))
print(torch.allclose(lp.exp(), p))
weights = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
loss = (p * weights).sum() - lp[0, 2] + (q ** 2).sum()
loss.backward()
print(loss.item())
print(logits.grad)
