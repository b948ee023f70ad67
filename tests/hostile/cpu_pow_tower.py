# expect: LimitError
x = 10**10**10
