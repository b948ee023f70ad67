# expect: LimitError
# numpy's integers are numbers to torch (np.int64 is no int subclass): the bound on the
# pieces a split makes read Python's numbers only
import numpy as np
import torch
print(len(torch.tensor_split(torch.ones(1), np.int64(3_000_000))))
