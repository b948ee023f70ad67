# expect: LimitError
import torch.nn as nn


class L(nn.Linear):
    def __init__(self):
        super().__init__(10**5, 10**5)


m = L()
