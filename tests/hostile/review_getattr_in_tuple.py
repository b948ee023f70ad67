# expect: ForbiddenError
fs = (getattr,)
print(fs[0](1, "real"))
