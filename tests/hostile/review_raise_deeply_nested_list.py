# expect: LimitError
x = []
for i in range(50000):
    x = [x]
raise ValueError(x)
