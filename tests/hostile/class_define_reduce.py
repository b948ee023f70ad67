# expect: ForbiddenError
class A:
    def __reduce__(self):
        return (print, ("x",))
