# expect: LimitError
# a bar over a billion items read whole by list(): capped as list(range(...)) is
from tqdm import tqdm
print(len(list(tqdm(range(10**9)))))
