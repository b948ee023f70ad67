# expect: LimitError
# Counter.elements read off the class, of a count of 10^9: read to a list
import collections
c = collections.Counter(a=10**9)
print(len(list(collections.Counter.elements(c))))
