# expect: KeyError
# a KeyError on a 1000-item tuple of 100k strings: the message is repr(key) shortened (each item cut to '...'), not 100 MB
key = tuple(["y" * 100000] * 1000)
d = {}
d[key]
