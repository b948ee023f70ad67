# expect: LimitError
l = [0]
for i in range(100):
    l.extend(l)
