# expect: LimitError|RecursionError
# a 200,000-deep tuple used as a dict key: tuplehash recurses in C with no depth check
a = ()
for i in range(100000):
    a = (a,)
for i in range(100000):
    a = (a,)
d = {a: 1}
print(len(d))
