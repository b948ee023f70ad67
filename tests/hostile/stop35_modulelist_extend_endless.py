# expect: LimitError
# ModuleList.extend reads its iterable in torch's own loop: an endless one added layers
# until the wall-time alarm, the item cap never applied
import itertools

import torch.nn as nn

layers = nn.ModuleList([nn.ReLU()])
layers.extend(itertools.repeat(nn.Tanh()))
