# expect: ForbiddenError
# setattr on the program's class names a dunder: Python would call it itself
class A:
    pass


setattr(A, "__getattribute__", lambda self, name: 1)
