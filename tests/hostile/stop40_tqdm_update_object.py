# expect: TypeError
# update with an object of the program's, whose __radd__ would run inside the bar
from tqdm import tqdm
class N:
    def __radd__(self, other):
        return 10**100
bar = tqdm(total=3)
bar.update(N())
