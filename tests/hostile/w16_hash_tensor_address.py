# expect: AssertionError
# hash() of a tensor is id(self) in torch, of a Module or a class its address in CPython:
# id() numbers a program's objects so as not to show where they live, and hash() too
import torch
x = torch.ones(3)
m = torch.nn.Linear(2, 2)
print(hash(x), hash(m), hash(torch.float32), hash(x) == hash(x))
assert max(hash(x), hash(m), hash(torch.float32)) > 2**32, "hash() numbers objects; it is no address"
