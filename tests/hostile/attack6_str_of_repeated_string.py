# expect: LimitError
# str() of a list was bounded by its items, not their length: one 100,000-character
# string held 20,000 times is 2 billion characters, written in C before any check
s = "x" * 100000
print(len(str([s] * 20000)))
