# expect: ForbiddenError
# the view's class is ours, not a class a program can name
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        view = type(self._modules)
        print(view)


Net()
