# expect: ForbiddenError
# Only the bare name `object` is read as the base: an expression around it is the name as a
# value (refused).
class A((object,)[0]):
    pass
