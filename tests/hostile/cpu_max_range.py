# expect: LimitError
print(max(range(10**12)))
