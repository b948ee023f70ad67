# expect: LimitError
# dq += obj is deque.extend, which reads obj in C: an object of the program whose __iter__
# hands back an endless C iterator is no Iterator itself, so it went uncapped, and a deque
# with a maxlen read it for good (no memory grows, no bytecode runs, the alarm never fires)
import collections
import itertools
class Endless:
    def __iter__(self):
        return itertools.repeat(0)
dq = collections.deque(maxlen=2)
dq += Endless()
