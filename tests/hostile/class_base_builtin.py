# expect: ForbiddenError
class A(dict):
    pass

print(A())
