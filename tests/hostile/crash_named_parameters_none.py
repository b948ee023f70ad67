# expect: ForbiddenError|TypeError
# an instance attribute shadows named_parameters; serialisation calls it after the run (500)
import torch
m = torch.nn.Linear(1, 1)
m.named_parameters = None
print("set")
