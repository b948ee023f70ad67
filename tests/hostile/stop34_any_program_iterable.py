# expect: LimitError
# any() reads its argument in C: an object of the program whose __iter__ is an endless C
# iterator of falsy items kept C busy for good, out of the alarm's reach
import itertools
class Endless:
    def __iter__(self):
        return itertools.repeat(0)
print(any(Endless()))
