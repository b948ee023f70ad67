# expect: RuntimeError
# a flag set to an object of the program's, whose __bool__ torch would call later
import torch


class Sneaky:
    def __bool__(self):
        while True:
            pass


torch.backends.cudnn.deterministic = Sneaky()
