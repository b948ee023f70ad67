# expect: LimitError
# Each list is within the per-list limit; together they would pass the memory ceiling.
rows = [[0] * 1000000 for i in range(1000)]
