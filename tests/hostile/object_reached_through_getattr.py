# expect: ForbiddenError
# The same through getattr and format fields.
class A(object):
    pass


print("{0.__base__}".format(A), getattr(A, "__mro__"))
