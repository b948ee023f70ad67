# expect: ForbiddenError
# f"{expr=:spec}" self-documenting field with a bound str.format call inside
import torch
show = "{0.__globals__[torch].os.environ}".format
print(f"{show(torch.nn.functional.relu)[:40]=}")
