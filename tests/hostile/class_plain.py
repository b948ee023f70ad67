# expect: ForbiddenError
class A:
    pass

print(A().__dict__)
