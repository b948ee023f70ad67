# expect: ForbiddenError
class E(Exception):
    pass

raise E()
