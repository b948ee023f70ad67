# expect: LimitError
# fromkeys through map: the callee is the same, so are its checks
import collections
print(list(map(collections.defaultdict.fromkeys, [range(10**7)])))
