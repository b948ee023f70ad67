# expect: ForbiddenError
# a state_dict is an OrderedDict subclass with a private _metadata table; read it by format walk through map
import torch
sd = torch.nn.Linear(1, 1).state_dict()
print(list(map("{0._metadata}".format, [sd]))[0])
