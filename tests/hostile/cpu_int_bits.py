# expect: LimitError
x = 7**5000
