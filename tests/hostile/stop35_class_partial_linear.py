# expect: LimitError
# functools.partial calls the class it holds in C: nn.Linear(100_000, 100_000), 10**10
# weights, was never sized
import functools
import torch.nn as nn

make = functools.partial(nn.Linear, 100_000)
print(make(100_000))
