# expect: ForbiddenError
# the table that marks a class as the program's (and admits reading its members) is not the program's to write
class A:
    x = 1
A.gradtrace_members = frozenset(["mro"])
print(A.mro())
