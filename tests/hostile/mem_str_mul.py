# expect: LimitError
x = 'a' * 10**10
