# expect: LimitError
# dict.fromkeys reached through functools.partial with a huge range
import functools
f = functools.partial(dict.fromkeys, range(10**8))
print(len(f()))
