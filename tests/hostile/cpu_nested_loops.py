# expect: LimitError
for i in range(10**6):
    for j in range(10**6):
        pass
