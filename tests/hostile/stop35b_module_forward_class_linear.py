# expect: LimitError
# A class as a Module's forward: torch's Module.__call__ called it in Python with what the
# program passed, none of the call path's checks: nn.Linear(100_000, 100_000), 10**10
# weights, was never sized
import torch.nn as nn


class M(nn.Module):
    forward = nn.Linear


print(M()(100_000, 100_000))
