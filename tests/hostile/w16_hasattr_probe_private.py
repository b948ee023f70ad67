# expect: ForbiddenError
# hasattr reads through the same allowlists: a refusal is not a quiet False
import torch
m = torch.nn.Linear(2, 2)
print(hasattr(m, "_parameters"))
