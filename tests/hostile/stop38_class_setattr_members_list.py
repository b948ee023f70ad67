# expect: ForbiddenError
# the list of a class's own members decides what may be read of it: not the program's
class A:
    x = 1


setattr(A, "gradtrace_members", frozenset({"__dict__", "__globals__"}))
