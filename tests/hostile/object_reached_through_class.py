# expect: ForbiddenError
# Python's object reached through a class built on it: its bases and MRO are not readable.
class A(object):
    pass


print(A.__bases__, A.__mro__)
