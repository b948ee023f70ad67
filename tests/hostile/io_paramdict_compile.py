# expect: ForbiddenError
# pd["compile"]() reaches torch.compile (dynamo: bytecode rewriting, code caches, temp files)
import torch
pd = torch.nn.ParameterDict({"w": torch.nn.Parameter(torch.ones(4))})
pd["compile"]()
print("compiled")
