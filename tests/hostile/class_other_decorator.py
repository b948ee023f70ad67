# expect: ForbiddenError
def deco(cls):
    return cls.__init__


@deco
class P:
    pass
