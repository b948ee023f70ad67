# expect: ForbiddenError
# a property answers each read afresh: one head to the size check, four to torch
import torch


def get_heads(self):
    self.reads = self.reads + 1
    return 1 if self.reads % 2 else 4


def set_heads(self, value):
    self.reads = 0


class Sly(torch.nn.MultiheadAttention):
    num_heads = property(get_heads, set_heads)


mha = Sly(4, 4)
q = torch.ones(10, 1, 4)
print(mha(q, q, q)[0].shape)
