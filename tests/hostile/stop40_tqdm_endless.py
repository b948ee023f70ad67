# expect: LimitError
# a bar over an endless iterator: the loop limit still counts
import itertools
from tqdm import tqdm
for i in tqdm(itertools.count()):
    pass
