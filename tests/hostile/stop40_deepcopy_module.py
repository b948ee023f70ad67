# expect: TypeError
# deepcopy of a module stand-in: CPython cannot pickle a module; the real torch never reaches the copy
import copy
import torch
print(copy.deepcopy(torch))
