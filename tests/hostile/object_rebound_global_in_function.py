# expect: ForbiddenError
# `global object` assigned inside a function, then a class built on it: dict is not a base.
def rebind():
    global object
    object = dict


rebind()


class A(object):
    pass


print(A())
