# expect: LimitError
def f(n):
    return n + 1

n = 0
while True:
    n = f(n)
