# expect: LimitError
# the bound fromkeys of an instance, under another name, with a huge range
f = {}.fromkeys
print(len(f(range(10**8))))
