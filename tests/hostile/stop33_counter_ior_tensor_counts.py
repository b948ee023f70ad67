# expect: LimitError
# c |= d compares the counts each key shares in C: tensor counts that broadcast to a huge
# tensor, as `c + d` is checked
import collections
import torch
c = collections.Counter()
d = collections.Counter()
c["k"] = torch.ones(100000, 1)
d["k"] = torch.ones(1, 100000)
c |= d
