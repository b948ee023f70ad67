# expect: ForbiddenError
print(min([1, 2], key="{0.__class__}".format))
