# expect: ForbiddenError
import torch
print(type(torch))
