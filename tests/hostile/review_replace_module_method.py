# expect: ForbiddenError
import torch
m = torch.nn.Linear(1, 1)
m.named_parameters = lambda: [("w", 5)]
