# expect: LimitError|RecursionError
l = []
for i in range(90000):
    l = [l]
print(l)
