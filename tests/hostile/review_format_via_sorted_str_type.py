# expect: ForbiddenError
print(sorted(["{0.__class__}"], key=str.format))
