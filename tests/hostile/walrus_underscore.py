# expect: ForbiddenError
print((__x := 1))
