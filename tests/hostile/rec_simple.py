# expect: LimitError
def f():
    return f()

f()
