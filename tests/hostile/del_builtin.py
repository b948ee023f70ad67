# expect: NameError
del print
