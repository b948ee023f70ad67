# expect: LimitError
x = 3
for i in range(40):
    x = x * x
