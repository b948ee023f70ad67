# expect: ForbiddenError
def g():
    yield 1


gen = g()
print(gen._steps.gi_frame.f_globals)
