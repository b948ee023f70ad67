# expect: ForbiddenError
# A method decorated with eval (a builtin refused as a name).
class D:
    @eval
    def f(self):
        return 1
