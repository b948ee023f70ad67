# expect: ForbiddenError
class A:
    pass


print(A.__subclasses__())
