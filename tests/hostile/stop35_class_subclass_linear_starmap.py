# expect: LimitError
# The program's subclass of nn.Linear runs torch's constructor: itertools.starmap called it
# in C with sizes nothing checked
import itertools
import torch.nn as nn


class Wide(nn.Linear):
    pass


print(list(itertools.starmap(Wide, [(100_000, 100_000)])))
