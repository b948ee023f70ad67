# expect: ForbiddenError|AttributeError
# a generator's frame and code stay out of reach
def gen():
    yield 1


g = gen()
print(g.gi_code.co_consts)
