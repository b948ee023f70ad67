# expect: ForbiddenError
_secret = 5
print(_secret)
