# expect: LimitError
import torch
u, s, v = torch.linalg.svd(torch.ones(3000, 2), full_matrices=True)
