# expect: LimitError
x = 2**(10**9)
