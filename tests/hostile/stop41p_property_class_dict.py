# expect: ForbiddenError
# Cls.__dict__['x'].fget.__globals__: the class mapping, the wrapper's globals (gradtrace's module)
class A:
    @property
    def x(self):
        return 1
print(A.__dict__["x"].fget.__globals__)
