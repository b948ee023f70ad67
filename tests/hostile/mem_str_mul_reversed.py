# expect: LimitError
x = 10**6 * 'abcdefghij'
