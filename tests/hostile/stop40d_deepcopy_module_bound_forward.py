# expect: ZeroDivisionError
# divergence: a module keeping a bound method of a torch submodule (self.g = self.lin.forward); CPython rebinds it to the copied submodule, gradtrace's copy still calls the original's weights
import copy
import torch
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)
        self.g = self.lin.forward
m = M()
m2 = copy.deepcopy(m)
with torch.no_grad():
    m2.lin.weight.fill_(0.0)
    m2.lin.bias.fill_(0.0)
out = m2.g(torch.ones(1, 2))
if out.abs().sum().item() != 0.0:
    raise KeyError("the copy's stored forward still uses the original module")
x = 1 / 0
