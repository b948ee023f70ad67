# expect: LimitError
# `a in it` reads an iterator in C until it finds a: never, in itertools.count(), and
# no alarm interrupts C (the job ran until its worker was killed)
import itertools
print(-1 in itertools.count())
