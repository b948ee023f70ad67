# expect: ForbiddenError
# Python's own special methods of its objects stay out of reach: only the program's own.
xs = [1, 2]
print(xs.__len__())
