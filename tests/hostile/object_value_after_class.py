# expect: ForbiddenError
# `class A(object)` is admitted; the name `object` as a value is still refused.
class A(object):
    pass


base = object
print(base())
