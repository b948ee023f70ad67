# expect: ForbiddenError
def gen():
    yield 1

for v in gen():
    print(v)
