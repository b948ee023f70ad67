# expect: LimitError
# dict.fromkeys called by map() with a huge range
print(len(list(map(dict.fromkeys, [range(10**8)]))[0]))
