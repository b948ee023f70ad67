# expect: ForbiddenError
# the bar's namespace
from tqdm import tqdm
print(tqdm(range(2)).__dict__)
