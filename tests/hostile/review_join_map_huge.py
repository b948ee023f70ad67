# expect: LimitError
big = "a" * 100000
print(len(list(map("".join, [[big] * 1000]))[0]))
