# expect: ForbiddenError
# .setter of a property object the program holds, given a builtin: a property whose setter is C's print, placed on a class
class A:
    @property
    def x(self):
        return 1
p = A.x.setter(print)
A.y = p
a = A()
a.y = 5
