# expect: LimitError
# operator.itemgetter(key)(dict): the dict lookup hashes the key in C, outside the checks that dict subscripts, .get and .pop get: a 360,000-deep nested tuple key makes tuplehash overflow the C stack (SIGSEGV)
import operator
t = ()
for j in range(4):
    for i in range(90000):
        t = (t,)
print(operator.itemgetter(t)({}))
