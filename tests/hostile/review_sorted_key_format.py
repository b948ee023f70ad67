# expect: ForbiddenError
print(sorted([len, abs], key="{0.__globals__}".format))
