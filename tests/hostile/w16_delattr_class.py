# expect: ForbiddenError
class Box:
    pass


b = Box()
delattr(b, "__class__")
