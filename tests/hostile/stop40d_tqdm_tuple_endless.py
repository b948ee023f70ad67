# expect: LimitError
# tuple() of a bar over a C iterator of 5,000,000 items (uncapped, unlike tuple(itertools.repeat(1, 5_000_000))); an endless one grows in C past the memory limit until the alarm
import itertools
from tqdm import tqdm
x = tuple(tqdm(itertools.repeat(1, 5_000_000)))
y = 1 / 0
