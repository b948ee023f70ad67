# expect: ForbiddenError
# an exception carries the bound format method in args; calling it from e.args[0]
import torch
try:
    raise ValueError("{0.__globals__[torch].os.environ}".format)
except ValueError as e:
    print(e.args[0](torch.nn.functional.relu)[:60])
