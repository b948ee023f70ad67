# expect: ValueError|LimitError
x = int('9' * 5000)
