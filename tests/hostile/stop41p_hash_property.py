# expect: ForbiddenError
# __hash__ as a property (its getter answering a lambda): Python's C hashing of a dict key would call what it gives
class A:
    @property
    def __hash__(self):
        return lambda: 1
d = {A(): 1}
