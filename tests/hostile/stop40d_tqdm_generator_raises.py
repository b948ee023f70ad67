# expect: ValueError
# a bar over a generator that raises part-way: the error is the program's own, raised through the stand-in's loop
from tqdm import tqdm
def gen():
    yield 1
    raise ValueError("boom")
for x in tqdm(gen()):
    pass
