# expect: ForbiddenError
s = staticmethod("{0.__globals__}".format)
print(s(len))
