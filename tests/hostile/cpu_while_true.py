# expect: LimitError
while True:
    pass
