# expect: LimitError
import torch
m = torch.nn.Linear(1000, 1000)
keep = []
m.register_forward_hook(lambda mod, i, o: keep.append(o.repeat(1000, 1)))
x = torch.ones(1, 1000)
for i in range(100):
    m(x)
