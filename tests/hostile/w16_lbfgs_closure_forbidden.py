# expect: ForbiddenError
# LBFGS calls the closure from inside torch: what it runs is checked all the same
import torch
p = torch.ones(3, requires_grad=True)
opt = torch.optim.LBFGS([p])


def closure():
    opt.zero_grad()
    loss = (p * p).sum()
    loss.backward()
    print(getattr(loss, "_version"))
    return loss


opt.step(closure)
