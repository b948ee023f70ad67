# expect: LimitError
# s |= t in place, again and again with fresh sets: the set's size is checked after each
s = set()
for k in range(100):
    s |= set(range(k * 90000, (k + 1) * 90000))
