# expect: LimitError
x = list(range(10**9))
