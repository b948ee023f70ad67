# expect: ForbiddenError|AttributeError
# a bar made to iterate itself by setting its iterable (Python recursion inside the stand-in)
from tqdm import tqdm
bar = tqdm(range(3))
bar.iterable = bar
for x in bar:
    pass
