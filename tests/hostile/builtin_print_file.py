# expect: ForbiddenError
print('x', file=open('pwned', 'w'))
