# expect: ForbiddenError
# m.named_parameters = a program lambda: serialisation runs program code after the run, outside the alarm
import torch
m = torch.nn.Linear(1, 1)
m.named_parameters = lambda: [print("printed after the run ended")] and []
print("run over")
