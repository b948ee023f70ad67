# expect: LimitError
# each argument within the limits, all of them joined by print in C: 2 billion characters
s = "x" * 100000
print(*([s] * 20000))
