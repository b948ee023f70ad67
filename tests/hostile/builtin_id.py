# expect: AssertionError
# id() must not tell a program where its objects live in the worker's memory
import torch
x = torch.ones(3)
print(id(x))
assert id(x) > 2**32, "id() numbers the program's objects; it is no address"
