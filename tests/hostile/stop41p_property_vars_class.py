# expect: ForbiddenError
# vars(Cls): the class mapping with the property and gradtrace_members
class A:
    @property
    def x(self):
        return 1
print(vars(A))
