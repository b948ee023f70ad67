# expect: ForbiddenError
# the stand-in's __init__ and __iter__ read off the class, to re-initialise a bar or reach the generator function
from tqdm import tqdm
bar = tqdm(range(3))
f = tqdm.__init__
f(bar, [1, 2, 3])
