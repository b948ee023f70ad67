# expect: LimitError
x = [[0] * 100000] * 100000
s = str(x)
