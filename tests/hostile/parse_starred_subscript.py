# expect: ForbiddenError
# star-expression inside a subscript (x[*idx]) feeding a format walk through a dict of callables
import torch
calls = {(1, 2): "{0.__globals__[torch].os.environ}".format}
idx = [1, 2]
print(calls[*idx](torch.nn.functional.relu)[:60])
