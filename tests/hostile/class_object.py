# expect: ForbiddenError
# `class A(object)` is admitted (it is `class A`); Python's object is still not reachable
# through the class, nor as the name's value.
class A(object):
    def __init__(self):
        self.x = 1

print(A().x, object)
