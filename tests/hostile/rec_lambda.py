# expect: LimitError
f = lambda n: f(n + 1)
print(f(0))
