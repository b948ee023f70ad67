# expect: ForbiddenError
# reach a torch function's __code__ (co_consts, co_names) through a format field
import torch
show = "{0.__code__.co_names}".format
print(show(torch.nn.functional.relu)[:200])
