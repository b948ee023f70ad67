# expect: ForbiddenError
# a deferred refused import caught by the program's except, to go on as if it had worked
def load():
    from subprocess import run

    return run


try:
    load()
except BaseException:
    pass
print("went on")
