# expect: ForbiddenError
f = lambda x=eval: x('1')
print(f())
