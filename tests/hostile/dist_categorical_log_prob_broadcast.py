# expect: LimitError
# A Categorical broadcasts the value against its logits, categories included.
import torch
from torch.distributions import Categorical

d = Categorical(logits=torch.zeros(5000))
x = d.log_prob(torch.zeros(5000, 1000, dtype=torch.long))
