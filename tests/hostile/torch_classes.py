# expect: ForbiddenError
import torch
print(torch.classes.load_library('x.so'))
