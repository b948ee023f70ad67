# expect: LimitError
print(sorted(range(10**9))[0])
