# expect: ForbiddenError
# A special method is read, never replaced on an object: Python would not call it there.
class V:
    def __len__(self):
        return 1
v = V()
v.__len__ = lambda: 5
print(len(v))
