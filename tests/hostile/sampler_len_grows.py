# expect: LimitError
# a dataset whose __len__ grows after the sampler read it: range(len) made in C later
from torch.utils.data import SequentialSampler


class D:
    n = 10

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i


d = D()
s = SequentialSampler(d)
d.n = 10**12
print(sum(s))
