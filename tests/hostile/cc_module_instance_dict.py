# expect: ForbiddenError
# a Module's __dict__ (hook tables, private state) read through a format field walk
import torch
m = torch.nn.Linear(1, 1)
print(list(map("{0.__dict__}".format, [m]))[0][:200])
