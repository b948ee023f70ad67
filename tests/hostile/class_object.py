# expect: ForbiddenError
class A(object):
    def __init__(self):
        self.x = 1

print(A().x)
