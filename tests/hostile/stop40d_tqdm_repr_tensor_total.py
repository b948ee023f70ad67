# expect: TypeError|ValueError|RuntimeError|ForbiddenError
# a bar whose total is a 1,000-element tensor: int(total) in len() and the bar's text
import torch
from tqdm import tqdm
bar = tqdm(total=torch.ones(1000))
print(bar)
