# expect: LimitError|TypeError
# set_description formats its argument with an f-string (Python's own format, no string limit), in one C call
from tqdm import tqdm
a = [list(range(1000))] * 1000
b = [a] * 1000
c = [b] * 1000
bar = tqdm(range(3))
bar.set_description(c)
print("made")
