# expect: LimitError
s = 'x'.join(['a' * 90000] * 90000)
