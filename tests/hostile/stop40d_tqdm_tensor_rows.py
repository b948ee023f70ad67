# expect: LimitError
# a bar over a tensor of 2,000,000 rows: torch's Tensor.__iter__ unbinds every row at once in C (~1.4 GB, seconds, past the memory limit), the row check a plain loop makes (100,000 rows) is skipped inside the stand-in; the job then goes on
import torch
from tqdm import tqdm
for x in tqdm(torch.zeros(2_000_000)):
    break
x = 1 / 0
