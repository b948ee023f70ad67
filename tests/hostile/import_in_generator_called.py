# expect: ForbiddenError
# a refused import inside a generator's body, reached by next()
def gen():
    yield 1
    import ctypes

    yield ctypes.CDLL(None)


g = gen()
next(g)
next(g)
