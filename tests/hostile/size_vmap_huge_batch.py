# expect: LimitError
# inside vmap each op runs over the whole batch: a per-example tensor under the limit is 1000 of them
import torch
from torch.func import vmap
print(vmap(lambda r: r.repeat(4000))(torch.ones(1000, 1000)).shape)
