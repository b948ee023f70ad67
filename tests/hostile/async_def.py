# expect: ForbiddenError
async def f():
    return 1

print(f())
