# expect: LimitError
j = "x".join
big = "a" * 100000
print(len(j([big] * 1000)))
