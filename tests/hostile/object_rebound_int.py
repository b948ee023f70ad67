# expect: ForbiddenError
# The name `object` bound by the program is what a class statement builds on: here int, which
# a class may not build on (not read as Python's object).
object = int


class A(object):
    pass


print(A(5) + 1)
