# expect: ForbiddenError
import operator
import torch
print(operator.attrgetter("_parameters")(torch.nn.Linear(2, 2)))
