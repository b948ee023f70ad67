# expect: ForbiddenError
class A:
    def __init_subclass__(cls):
        pass
