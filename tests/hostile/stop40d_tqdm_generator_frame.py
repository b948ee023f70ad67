# expect: ForbiddenError
# iter() of a bar hands the program the stand-in's own Python generator: its frame would reach the bar and the module's globals
from tqdm import tqdm
it = iter(tqdm([1, 2]))
next(it)
f = it.gi_frame
print(f)
