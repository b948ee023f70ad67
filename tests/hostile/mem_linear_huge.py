# expect: LimitError
import torch.nn as nn
layer = nn.Linear(100000, 100000)
