# expect: TypeError
# setstate() takes a state getstate() gave: a program object's __len__ or __getitem__ is
# not read by Python's random from C.
import random
class S:
    def __len__(self):
        raise ValueError("ran")
    def __getitem__(self, i):
        raise ValueError("ran")
random.Random(1).setstate(S())
