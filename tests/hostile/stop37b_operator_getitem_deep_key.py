# expect: LimitError
# operator.getitem(dict, key): the dict lookup hashes the key in C (the d[key] syntax is checked, this callee is not): a 360,000-deep nested tuple overflows the C stack in tuplehash (SIGSEGV)
import operator
t = ()
for j in range(4):
    for i in range(90000):
        t = (t,)
print(operator.getitem({}, t))
