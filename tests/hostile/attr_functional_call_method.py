# expect: TypeError
# functional_call cannot put a tensor in place of a method
import torch
m = torch.nn.Linear(2, 2)
print(torch.func.functional_call(m, {"forward": torch.ones(1)}, (torch.ones(2),)))
