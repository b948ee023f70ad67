# expect: TypeError
# An instance's seed is checked as random.seed's: a program object's __hash__ is not asked.
import random
class K:
    def __hash__(self):
        raise ValueError("ran")
random.Random(K())
