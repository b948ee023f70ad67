# expect: LimitError
def down():
    yield from down()


print(next(down()))
