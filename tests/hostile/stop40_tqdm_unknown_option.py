# expect: TypeError
# an option tqdm does not know
from tqdm import tqdm
for i in tqdm(range(2), callback=print):
    pass
