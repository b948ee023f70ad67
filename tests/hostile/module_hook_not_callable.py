# expect: TypeError
import torch
m = torch.nn.Linear(2, 2)
m.register_forward_hook(5)
m(torch.ones(2))
