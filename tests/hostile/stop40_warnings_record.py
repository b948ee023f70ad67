# expect: ForbiddenError
# record=True would hand the program WarningMessage objects (file paths of the server)
import warnings
import torch
with warnings.catch_warnings(record=True) as caught:
    torch.tensor(torch.ones(1))
print(caught[0].filename)
