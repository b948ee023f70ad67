# expect: LimitError
x = [0] * 10**10
