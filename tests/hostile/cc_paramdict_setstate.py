# expect: ForbiddenError
# pd["__setstate__"] replaces a module's whole private __dict__ (hook tables, _parameters) with program data
import torch
pd = torch.nn.ParameterDict({"w": torch.nn.Parameter(torch.ones(2))})
state = dict(pd["__dict__"])
state["_parameters"] = {"w": torch.nn.Parameter(torch.zeros(2)), "_hidden": torch.nn.Parameter(torch.ones(1))}
pd["__setstate__"](state)
print(pd["_hidden"], list(pd.keys()))
