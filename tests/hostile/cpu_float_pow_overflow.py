# expect: OverflowError|LimitError
x = 10.0 ** 10**6
