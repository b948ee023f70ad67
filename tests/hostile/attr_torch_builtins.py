# expect: ForbiddenError
import torch
b = torch.__builtins__
print(b['open']('/etc/passwd').read())
