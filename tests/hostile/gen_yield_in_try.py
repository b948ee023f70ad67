# expect: ForbiddenError
def g():
    try:
        yield 1
    finally:
        print("cleanup")


print(list(g()))
