# expect: ForbiddenError
class A:
    def f(self):
        return 1


m = A().f
print(m.__func__)
