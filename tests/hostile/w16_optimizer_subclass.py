# expect: ForbiddenError
# Optimizer is a class to test against and to call, not a base: its hooks are torch's
import torch


class Mine(torch.optim.Optimizer):
    def step(self, closure=None):
        return None


p = torch.ones(2, requires_grad=True)
Mine([p], {"lr": 0.1}).step()
