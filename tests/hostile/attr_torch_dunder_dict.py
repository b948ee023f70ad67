# expect: ForbiddenError
import torch
print(torch.__dict__['os'])
