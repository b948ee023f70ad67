# expect: LimitError
import torch
m = torch.nn.Linear(2, 2)
m.register_forward_hook(lambda mod, i, o: torch.ones(100000, 100000))
print(m(torch.ones(2)).shape)
