# expect: LimitError
# a Module whose forward is a property answering "".join: torch calls what the getter gave with the program's argument (18e9 characters)
import torch.nn as nn
parts = ["x" * 90000] * 200000
class M(nn.Module):
    @property
    def forward(self):
        return "".join
print(len(M()(parts)))
