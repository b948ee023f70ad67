# expect: ForbiddenError|LimitError
# __iter__ as a staticmethod: the endless C iterator it returns was not read through the cap
# (the wrapper of plain methods was skipped), and any() read it past the alarm (hung)
import itertools
class Endless:
    @staticmethod
    def __iter__():
        return itertools.repeat(0)
print(any(Endless()))
