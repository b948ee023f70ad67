# expect: ForbiddenError
class A:
    @classmethod
    def make(cls):
        return cls.__dict__


print(A.make())
