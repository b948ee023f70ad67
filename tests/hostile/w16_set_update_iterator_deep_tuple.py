# expect: LimitError
# set.update of an iterator: capped, but its items were hashed in C unbounded
a = ()
for i in range(100000):
    a = (a,)
for i in range(100000):
    a = (a,)
s = set()
s.update(iter([a]))
print(len(s))
