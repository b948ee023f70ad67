# expect: ForbiddenError
# setattr takes the name as text: torch's hook tables stay torch's
import torch


class Net(torch.nn.Module):
    def forward(self, x):
        return x


net = Net()
setattr(net, "_forward_pre_hooks", {1: print})
print(net(torch.ones(1)))
