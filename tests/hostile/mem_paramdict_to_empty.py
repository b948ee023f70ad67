# expect: ForbiddenError|KeyError
# pd["to_empty"] (ParameterDict getattr) re-allocates the parameters uninitialised
import torch
marker = torch.full((4096,), 31337.0)
del marker
pd = torch.nn.ParameterDict({"w": torch.nn.Parameter(torch.zeros(4096))})
pd["to_empty"](device="cpu")
y = pd["w"].detach()
assert not bool((y == 31337.0).any()), "the previous tensor's values are visible"
assert float(y.abs().sum()) == 0.0, "uninitialised memory is visible"
raise KeyError("clean")
