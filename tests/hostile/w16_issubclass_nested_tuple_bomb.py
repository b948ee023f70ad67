# expect: TypeError|LimitError
# issubclass walks nested tuples recursively in C: each item must be a class here
t = int
for i in range(100000):
    t = (t,)
print(issubclass(bool, t))
