# expect: ForbiddenError
# from a plain int: __class__.__mro__[-1] is `object`; its __subclasses__ bound method is reachable
show = "{0.__class__.__mro__[1].__subclasses__}".format
print(show(1)[:200])
