# expect: ForbiddenError
# nor to delete
class A:
    x = 1
del A.gradtrace_members
