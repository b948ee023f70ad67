# expect: ForbiddenError
class A:
    def __getattribute__(self, name):
        return 1
