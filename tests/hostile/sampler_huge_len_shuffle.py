# expect: LimitError
# RandomSampler of a dataset claiming a billion items: randperm(n) in one C call
from torch.utils.data import RandomSampler


class D:
    def __len__(self):
        return 10**9

    def __getitem__(self, i):
        return i


print(next(iter(RandomSampler(D()))))
