# expect: LimitError|RecursionError
# an exception whose args hold a 100,000-deep list: str(exc) in error_info recurses
a = []
for i in range(100000):
    a = [a]
raise ValueError(1, a)
