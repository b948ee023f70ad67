# expect: SyntaxError
import torch
(torch.nn := None)
