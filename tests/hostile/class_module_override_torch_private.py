# expect: ForbiddenError
import torch.nn as nn


class M(nn.Module):
    def _call_impl(self, *args):
        return 1
