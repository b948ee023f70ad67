# expect: ForbiddenError
# deepcopy with a memo of the program: deepcopy would read and write it, and return what the program put there
import copy
import torch
print(copy.deepcopy([1], {}))
