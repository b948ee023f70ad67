# expect: LimitError
# gradcheck on torch.sin of 4000 doubles builds two 4000x4000 Jacobians (256 MB) and 8000 evaluations inside torch
import torch
x = torch.ones(4000, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(torch.sin, (x,)))
