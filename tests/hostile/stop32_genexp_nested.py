# expect: LimitError
# a generator expression over a generator expression, 100,000 deep: each read resumes all
g = iter([0])
for i in range(100000):
    g = (x for x in g)
print(list(g))
