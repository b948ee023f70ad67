# expect: ForbiddenError
# ConcatDataset and ChainDataset by name: not in gradtrace's torch.utils.data.
from torch.utils.data import ConcatDataset
print(ConcatDataset)
