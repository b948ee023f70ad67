# expect: LimitError|ForbiddenError
s = 'a'
while True:
    s = s.replace('a', 'aa')
