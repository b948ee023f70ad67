# expect: ForbiddenError
print(type(len))
