# expect: LimitError
x = 1 << 10**9
