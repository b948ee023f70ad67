# expect: LimitError
import torch
x = torch.zeros((torch.tensor(10**5), torch.tensor(10**5)))
