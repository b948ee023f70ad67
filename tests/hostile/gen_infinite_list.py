# expect: LimitError
def ones():
    while True:
        yield 1


print(len(list(ones())))
