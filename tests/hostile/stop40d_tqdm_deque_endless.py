# expect: LimitError
# deque(bar, maxlen=1) over a C iterator of 5,000,000 items: the item cap a plain iterator gets is not applied
import collections
import itertools
from tqdm import tqdm
x = collections.deque(tqdm(itertools.repeat(1, 5_000_000)), maxlen=1)
y = 1 / 0
