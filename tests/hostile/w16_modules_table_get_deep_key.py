# expect: LimitError
# self._modules.get(key) looks the key up in torch's own dict, hashing it in C
import torch
a = ()
for i in range(100000):
    a = (a,)
for i in range(100000):
    a = (a,)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        print(self._modules.get(a))


Net()
