# expect: LimitError
l = [0]
while True:
    l = l + l
