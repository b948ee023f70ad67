# expect: ForbiddenError
class D:
    def __get__(self, obj, owner):
        return 1
