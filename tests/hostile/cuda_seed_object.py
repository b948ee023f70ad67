# expect: TypeError
# manual_seed_all with an object of the program's, whose __int__ would run from inside the seeding
import torch


class Seed:
    def __int__(self):
        while True:
            pass


torch.cuda.manual_seed_all(Seed())
