# expect: KeyError
# the view takes names as add_module does: no dotted paths into other modules' tables
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self._modules["fc._forward_hooks"] = torch.nn.Linear(2, 2)


Net()
print("registered")
