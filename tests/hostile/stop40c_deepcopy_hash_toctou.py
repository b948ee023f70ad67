# expect: ForbiddenError
# the walk checks before the copy, but deepcopy runs the program's __hash__ (rebuilding a dict keyed by a program object): on its second call it puts an optimizer and the random stand-in into a list the walk saw empty, and deepcopy copies them unwalked
import copy
import random
import torch
w = torch.ones(2, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
later = []
calls = [0]
class K:
    def __hash__(self):
        calls[0] += 1
        if calls[0] == 2:
            later.append(opt)
            later.append(random)
        return 1
    def __eq__(self, other):
        return True
x = [{K(): 1}, later]
y = copy.deepcopy(x)
print(y[1])
print(y[1][1] is random, y[1][1])
