# expect: LimitError|RecursionError
t = ()
for i in range(100000):
    t = (t,)
print(hash(t))
