# expect: ValueError
raise ValueError([list(range(1000))] * 1000)
