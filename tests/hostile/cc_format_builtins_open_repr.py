# expect: ForbiddenError
# reach the real builtins through a torch function's globals (open, eval, __import__)
import torch
show = "{0.__globals__[__builtins__][open]} {0.__globals__[__builtins__][__import__]}".format
print(show(torch.nn.functional.relu))
