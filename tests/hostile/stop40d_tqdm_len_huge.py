# expect: OverflowError|LimitError
# a bar over an object whose __len__ is 10**30: len() and the bar's text
from tqdm import tqdm
class L:
    def __len__(self):
        return 10**30
    def __iter__(self):
        return iter([1, 2])
bar = tqdm(L())
print(bar)
