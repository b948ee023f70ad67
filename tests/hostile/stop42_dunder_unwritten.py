# expect: ForbiddenError
# A plain class that wrote no __eq__ has Python's own: not handed out as a method.
class V:
    pass
print(V().__eq__)
