# expect: ForbiddenError
class A:
    pass

print(A())
