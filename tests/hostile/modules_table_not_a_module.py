# expect: TypeError
# _modules of one's own Module takes only Modules, as add_module does
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self._modules["evil"] = print


net = Net()
print(net)
