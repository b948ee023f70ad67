# expect: LimitError
# LBFGS keeps two parameter-sized vectors per iteration of its history, inside torch
import torch
p = torch.ones(1000000, requires_grad=True)
opt = torch.optim.LBFGS(
    [p], lr=0.001, history_size=100000, max_iter=100000, tolerance_grad=-1.0, tolerance_change=-1.0
)


def closure():
    opt.zero_grad()
    loss = torch.dot(p, p)
    loss.backward()
    return loss


opt.step(closure)
print(len(opt.state[p]["old_dirs"]))
