# expect: LimitError
# nested vmaps: the inner function's product is batched by both levels, though its own argument is batched by one
import torch
from torch.func import vmap
xs = torch.ones(400, 100)
ys = torch.ones(400, 100)
print(vmap(lambda x: vmap(lambda y: torch.outer(x, y))(ys))(xs).shape)
