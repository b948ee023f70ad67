# expect: ForbiddenError|AttributeError
# tqdm's internals: the class-wide lock and instance set of the real tqdm do not exist here, nor private names
from tqdm import tqdm
bar = tqdm(range(3))
print(bar._instances)
