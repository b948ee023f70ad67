# expect: LimitError
# dict() reads an object with .keys() as a mapping, hashing the keys it answers in C
a = ()
for i in range(100000):
    a = (a,)
for i in range(100000):
    a = (a,)


class K:
    def keys(self):
        return [a]

    def __getitem__(self, key):
        return 1


print(len(dict(K())))
