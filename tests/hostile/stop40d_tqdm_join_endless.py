# expect: LimitError
# "".join of a bar over a C iterator of 5,000,000 items: the bar is not an Iterator, so the 1,000,000-item cap is not put on it, and the string made is 50x the string limit
import itertools
from tqdm import tqdm
x = "".join(tqdm(itertools.repeat("a", 5_000_000)))
y = 1 / 0
