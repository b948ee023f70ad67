# expect: ValueError
import torch.nn as nn


class M(nn.Module):
    def named_parameters(self, *a, **k):
        raise KeyError("trace writer")

    def parameters(self, *a, **k):
        raise KeyError("trace writer")

    def extra_repr(self):
        raise KeyError("trace writer")


m = M()
m.lin = nn.Linear(2, 2)
raise ValueError("the end")
