# expect: ForbiddenError
@eval
def f():
    pass
