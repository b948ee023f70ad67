# expect: ForbiddenError
# a user subclass of ParameterDict: self["..."] inside a method reaches any attribute of self
import torch
from torch import nn
class P(nn.ParameterDict):
    def peek(self, name):
        return self[name]
p = P()
print(p.peek("__class__"), p.peek("__module__"), len(p.peek("__dict__")))
