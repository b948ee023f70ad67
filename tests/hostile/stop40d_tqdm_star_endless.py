# expect: LimitError
# [*bar] of a bar over a C iterator of 5,000,000 items: list unpacking in C, uncapped
import itertools
from tqdm import tqdm
x = [*tqdm(itertools.repeat(1, 5_000_000))]
y = 1 / 0
