# expect: LimitError
# a dataclass's __eq__, called from C by the list comparison, compares the fields
import dataclasses

import torch


@dataclasses.dataclass
class Pair:
    t: object


a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print([Pair(a)] == [Pair(b)])
