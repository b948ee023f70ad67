# expect: ForbiddenError
import torch.nn as nn


class M(nn.Module):
    def compile(self):
        return super(M, self).compile()


M().compile()
