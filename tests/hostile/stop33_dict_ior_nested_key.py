# expect: LimitError
# d |= [(key, 1)]: the key is hashed in C; a tuple nested 100,000 deep would recurse there
key = ()
for i in range(100000):
    key = (key,)
d = {}
d |= [(key, 1)]
