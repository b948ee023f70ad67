# expect: ForbiddenError
class A:
    pass

a = A()
a.__dict__ = {}
