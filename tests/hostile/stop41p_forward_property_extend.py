# expect: LimitError
# forward as a property answering a list's bound extend, called by torch with an endless C iterator
import itertools
import torch.nn as nn
acc = []
class M(nn.Module):
    @property
    def forward(self):
        return acc.extend
M()(itertools.repeat(1, 30_000_000))
