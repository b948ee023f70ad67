# expect: ForbiddenError
print(str.format("{0.__globals__}", len))
