# expect: LimitError
print(sum(range(10**12)))
