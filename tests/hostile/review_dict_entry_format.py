# expect: ForbiddenError
d = {"f": "{0.__globals__}".format}
print(d["f"](len))
