# expect: ForbiddenError
# an encoder layer's self_attn read through a property of the program: the check would
# size one module's heads while torch's fast path reads another
import torch


def pick(self):
    self.flip = not getattr(self, "flip", False)
    return self.one if self.flip else self.many


class Sly(torch.nn.TransformerEncoderLayer):
    self_attn = property(pick)


layer = Sly(d_model=4, nhead=1, dim_feedforward=4)
layer.one = torch.nn.MultiheadAttention(4, 1)
layer.many = torch.nn.MultiheadAttention(4, 4)
print(layer(torch.ones(5, 1, 4)).shape)
