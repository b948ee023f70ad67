# expect: ForbiddenError
# On a class too: only the special methods its program wrote.
class V:
    def __len__(self):
        return 1
print(V.__hash__)
