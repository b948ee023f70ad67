# expect: ForbiddenError
# The program's own special method, taken without calling it: its bound method hands out
# nothing more (its __self__ and __func__ are Python's).
class V:
    def __getitem__(self, k):
        return k
f = V().__getitem__
print(f("a"))
print(f.__func__)
