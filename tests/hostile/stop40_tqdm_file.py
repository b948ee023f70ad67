# expect: TypeError
# a bar drawn to a file of the program's: it draws to nothing here
from tqdm import tqdm
class F:
    def write(self, s):
        print("drawn", s)
for i in tqdm(range(3), file=F()):
    pass
