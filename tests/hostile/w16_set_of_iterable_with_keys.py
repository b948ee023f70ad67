# expect: LimitError
# set() skipped its check for anything with a .keys attribute (taken for a mapping), but
# it iterates the object: a tuple nested 200,000 deep reached tuplehash (the worker crashed)
a = ()
for i in range(100000):
    a = (a,)
for i in range(100000):
    a = (a,)


class K:
    def keys(self):
        return []

    def __iter__(self):
        return iter([a])


print(len(set(K())))
