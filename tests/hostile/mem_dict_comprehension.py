# expect: LimitError
d = {i: i for i in range(10**8)}
