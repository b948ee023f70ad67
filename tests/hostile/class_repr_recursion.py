# expect: RecursionError|LimitError
class A:
    def __repr__(self):
        return repr(self)


print(A())
