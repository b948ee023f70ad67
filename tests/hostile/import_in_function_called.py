# expect: ForbiddenError
# an uncalled-looking function importing os, then called: refused when the line runs
def helper():
    import os

    return os.listdir("/")


print(helper())
