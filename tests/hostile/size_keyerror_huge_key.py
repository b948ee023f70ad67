# expect: LimitError
# a KeyError on a 1000-item tuple of 100k strings: the error message is repr(key), 100 MB
key = tuple(["y" * 100000] * 1000)
d = {}
d[key]
