# expect: LimitError|TypeError
# tqdm(desc=...) of a container printing to billions of characters: progress.tqdm reads str(desc) with Python's own str (no string limit), in one C call
from tqdm import tqdm
a = [list(range(1000))] * 1000
b = [a] * 1000
c = [b] * 1000
bar = tqdm(range(3), desc=c)
print("made")
