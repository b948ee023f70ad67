# expect: LimitError
# s.update(iterator) again and again with fresh items: each read is capped, the set was
# never size-checked after
import itertools
s = set()
for k in range(4):
    s.update(itertools.islice(itertools.count(k * 900000), 900000))
print(len(s))
