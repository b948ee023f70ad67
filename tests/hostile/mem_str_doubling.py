# expect: LimitError
s = 'ab'
for i in range(64):
    s = s + s
