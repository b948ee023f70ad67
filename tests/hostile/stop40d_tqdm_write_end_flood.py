# expect: LimitError
# tqdm.write (the static-method path, no instance) with a 99,999-character end, many times: the output limit counts end
from tqdm import tqdm
e = "x" * 99999
for i in range(100):
    tqdm.write("", end=e)
