# expect: ForbiddenError
import torch
q = torch.multiprocessing.Queue()
