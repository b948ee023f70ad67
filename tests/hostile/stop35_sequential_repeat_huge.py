# expect: LimitError
# nn.Sequential * n repeats its layers n times in torch's own loop: 10,000,000 entries were
# added one by one until the wall-time alarm (and the memory they took), never checked
import torch.nn as nn

block = nn.Sequential(nn.ReLU(), nn.Tanh())
deep = block * 5_000_000
print(len(deep))
