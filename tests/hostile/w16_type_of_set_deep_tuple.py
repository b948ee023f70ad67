# expect: LimitError
# type(set()) is Python's own set, not the builtin that bounds what it hashes: a tuple
# nested 200,000 deep is hashed recursively in C (the worker crashed)
a = ()
for i in range(100000):
    a = (a,)
for i in range(100000):
    a = (a,)
S = type(set())
s = S([a])
print(len(s))
