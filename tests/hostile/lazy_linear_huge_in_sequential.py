# expect: LimitError
# inside nn.Sequential torch calls the layer itself, not the program: the check still holds
import torch
net = torch.nn.Sequential(torch.nn.ReLU(), torch.nn.LazyLinear(50000))
print(net(torch.ones(2, 50000)).shape)
