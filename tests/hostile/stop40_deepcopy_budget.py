# expect: LimitError
# deepcopy of a list holding one 4M-element tensor twenty times over, and twenty others: the copies made count
import copy
import torch
ts = [torch.ones(2_000_000) for i in range(30)]
keep = [copy.deepcopy(ts) for i in range(10)]
