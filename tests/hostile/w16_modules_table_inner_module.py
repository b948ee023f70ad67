# expect: ForbiddenError
# self._modules is a view: the torch Module behind it is not reachable through it
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(2, 2)
        inner = self._modules._module
        print(inner._forward_hooks)


Net()
