# expect: LimitError
# list(zip(*[r] * 60)): 100,000 tuples of 60 (6M references); no bound on what the items hold in all; only the outer length is checked
r = range(100000)
rows = list(zip(*[r] * 60))
print(len(rows), len(rows[0]))
