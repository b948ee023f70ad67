# expect: ForbiddenError
# functional_call sets attributes of the module by name: never torch's own
import torch
m = torch.nn.Linear(2, 2)
print(torch.func.functional_call(m, {"_parameters": torch.ones(1)}, (torch.ones(2),)))
