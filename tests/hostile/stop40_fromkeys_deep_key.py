# expect: LimitError|RecursionError
# keys nested deep: hashing them in C recurses without a depth check
k = ()
for i in range(100000):
    k = (k,)
print(len(dict.fromkeys([k])))
