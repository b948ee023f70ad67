# expect: ForbiddenError
# __reduce_ex__ set through setattr: deepcopy would call what the program's reducer names with its arguments
import copy
class A:
    pass
def f(proto):
    return (print, ("called from deepcopy",))
a = A()
setattr(a, "__reduce_ex__", f)
print(copy.deepcopy(a))
