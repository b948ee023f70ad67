# expect: ForbiddenError
class A:
    pass

k = A().__class__
print(k.__bases__)
