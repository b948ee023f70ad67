# expect: LimitError
def ping(n):
    yield from pong(n + 1)


def pong(n):
    yield from ping(n + 1)


print(list(ping(0)))
