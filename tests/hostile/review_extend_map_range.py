# expect: LimitError
l = []
list(map(l.extend, [range(10**9)]))
