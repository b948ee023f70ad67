# expect: LimitError
# xs.extend(obj) (and xs += obj): an object of the program whose __iter__ is a C iterator
# is no Iterator itself, so it was not read through the cap: the list grew in C past the
# 1,000,000-item limit (an endless one grows it to the memory ceiling; xs += obj is
# checked only after C has built it)
import itertools
class Many:
    def __iter__(self):
        return itertools.repeat(0, 10**7)
xs = []
xs.extend(Many())
print(len(xs))
