# expect: ForbiddenError
class A:
    pass

print(A.__mro__)
