# expect: ForbiddenError|AttributeError
g = (i for i in range(3))
print(g.gi_frame.f_back.f_globals)
