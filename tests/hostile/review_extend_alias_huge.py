# expect: LimitError
l = []
e = l.extend
chunk = [0] * 900000
e(chunk)
e(chunk)
e(chunk)
print(len(l))
