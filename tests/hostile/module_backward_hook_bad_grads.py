# expect: RuntimeError|TypeError|ValueError
import torch
m = torch.nn.Linear(2, 2)
m.register_full_backward_hook(lambda mod, gi, go: (torch.ones(5, 5),))
m(torch.ones(1, 2)).sum().backward()
