# expect: LimitError
for i in range(100000):
    print('x' * 1000)
