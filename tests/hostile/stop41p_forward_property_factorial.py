# expect: LimitError
# forward as a property answering math.factorial: torch's __call__ calls it, still through the call path's bounds
import math
import torch.nn as nn
class M(nn.Module):
    @property
    def forward(self):
        return math.factorial
print(M()(10**6) % 7)
