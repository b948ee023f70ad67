# expect: LimitError
print(*range(10**8))
