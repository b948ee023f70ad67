# expect: ForbiddenError
with open('sentinel.txt', 'w') as f:
    f.write('pwned')
