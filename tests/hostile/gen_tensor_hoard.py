# expect: LimitError
import torch


def big():
    while True:
        yield torch.ones(1000000)


keep = []
for t in big():
    keep.append(t)
