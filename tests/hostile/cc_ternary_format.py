# expect: ForbiddenError
# the callee is an IfExp, not an Attribute: invoke() gets no owner
import torch
print(("{0.__globals__[torch].os.environ}".format if True else None)(torch.nn.functional.relu)[:60])
