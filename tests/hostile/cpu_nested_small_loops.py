# expect: LimitError
n = 0
for i in range(1000):
    for j in range(1000):
        for k in range(1000):
            n += 1
