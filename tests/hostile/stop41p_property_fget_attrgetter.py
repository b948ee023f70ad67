# expect: ForbiddenError
# operator.attrgetter("fget") of a program property read off its class: the wrapper function (its closure holds the interpreter's function)
import operator
class A:
    @property
    def x(self):
        return 1
print(operator.attrgetter("fget")(A.x))
